# Amber's install step, a thin layer over SwiftPM and scripts/build-lib.sh:
#
#   make                                   builds the library and the `amber` command (release),
#                                          and the GTK 4 adapter when pkg-config finds gtk4
#   make install [PREFIX=/usr/local] [DESTDIR=]
#   make uninstall [PREFIX=/usr/local] [DESTDIR=]
#   make gtk, make install-gtk, make uninstall-gtk   the GTK 4 adapter alone (at the end of this file)
#
# install puts in $(DESTDIR)$(PREFIX):
#   lib/libamber.so.X.Y.Z (stripped, SONAME libamber.so.X) and the symlinks libamber.so.X and
#   libamber.so; include/amber.h and include/amber/*.h; lib/pkgconfig/amber.pc; bin/amber; and,
#   when pkg-config finds gtk4 (libgtk-4-dev), the GTK 4 adapter: lib/libamber-gtk.so.*,
#   include/amber-gtk.h, lib/pkgconfig/amber-gtk.pc. Without GTK 4 it says it leaves the adapter out.
# uninstall removes exactly those files, and include/amber if it is then empty; it leaves the
# prefix's other directories (bin, lib, lib/pkgconfig, include) as they are.
# The version is the header's (AMBER_VERSION_* in include/amber/common.h), defined there once.
# Each build has its own scratch path: .build-lib (the library), .build-release (the command).

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR ?= $(PREFIX)/bin
LIBDIR ?= $(PREFIX)/lib
INCLUDEDIR ?= $(PREFIX)/include
PKGCONFIGDIR ?= $(LIBDIR)/pkgconfig
SWIFT ?= swift
STRIP ?= strip
INSTALL ?= install

version_part = $(shell sed -n 's/^\#define AMBER_VERSION_$(1) \([0-9][0-9]*\)$$/\1/p' include/amber/common.h)
MAJOR := $(call version_part,MAJOR)
VERSION := $(MAJOR).$(call version_part,MINOR).$(call version_part,PATCH)
ifeq ($(words $(subst ., ,$(VERSION))),3)
else
$(error no AMBER_VERSION_MAJOR/MINOR/PATCH in include/amber/common.h)
endif

LIB_REAL := libamber.so.$(VERSION)
LIB_SONAME := libamber.so.$(MAJOR)
LIB_BUILT := .build-lib/lib/$(LIB_REAL)
CLI_SCRATCH := .build-release
CLI_BUILT := $(CLI_SCRATCH)/release/amber
HEADERS := $(wildcard include/amber/*.h)
# What each build reads: a build runs again when one of these is newer than its output (SwiftPM
# then decides what to recompile). install only copies, so that `make && sudo make install`
# writes nothing into the build directories as root.
CORE_SOURCES := Package.swift $(shell find Sources/AmberArchive Sources/AmberCore Sources/CSystem -type f)
LIB_SOURCES := $(CORE_SOURCES) scripts/build-lib.sh include/amber.h $(HEADERS) $(shell find Sources/Amber Sources/CAmber -type f)
CLI_SOURCES := $(CORE_SOURCES) $(shell find Sources/amber-cli -type f)

.PHONY: all lib cli install uninstall
# Two SwiftPM builds at once would only fight over the cores.
.NOTPARALLEL:

# The GTK 4 adapter takes part when its toolkit is installed.
HAVE_GTK := $(shell pkg-config --exists gtk4 2>/dev/null && echo yes)

all: lib cli $(if $(HAVE_GTK),gtk)
lib: $(LIB_BUILT)
cli: $(CLI_BUILT)

$(LIB_BUILT): $(LIB_SOURCES)
	scripts/build-lib.sh

# The command, self-contained: the Swift runtime (and Foundation) linked in statically.
$(CLI_BUILT): $(CLI_SOURCES)
	$(SWIFT) build -c release --product amber --scratch-path $(CLI_SCRATCH) --static-swift-stdlib
	touch $@

install: $(LIB_BUILT) $(CLI_BUILT)
	$(INSTALL) -d "$(DESTDIR)$(LIBDIR)" "$(DESTDIR)$(PKGCONFIGDIR)" "$(DESTDIR)$(INCLUDEDIR)/amber" "$(DESTDIR)$(BINDIR)"
	$(INSTALL) -m 644 $(LIB_BUILT) "$(DESTDIR)$(LIBDIR)/$(LIB_REAL)"
	$(STRIP) --strip-unneeded "$(DESTDIR)$(LIBDIR)/$(LIB_REAL)"
	chmod 755 "$(DESTDIR)$(LIBDIR)/$(LIB_REAL)"
	ln -sfn $(LIB_REAL) "$(DESTDIR)$(LIBDIR)/$(LIB_SONAME)"
	ln -sfn $(LIB_SONAME) "$(DESTDIR)$(LIBDIR)/libamber.so"
	$(INSTALL) -m 644 include/amber.h "$(DESTDIR)$(INCLUDEDIR)/amber.h"
	$(INSTALL) -m 644 $(HEADERS) "$(DESTDIR)$(INCLUDEDIR)/amber/"
	sed -e 's|@PREFIX@|$(PREFIX)|g' -e 's|@LIBDIR@|$(LIBDIR)|g' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' \
	    -e 's|@VERSION@|$(VERSION)|g' amber.pc.in > "$(DESTDIR)$(PKGCONFIGDIR)/amber.pc"
	chmod 644 "$(DESTDIR)$(PKGCONFIGDIR)/amber.pc"
	$(INSTALL) -m 755 $(CLI_BUILT) "$(DESTDIR)$(BINDIR)/amber"
	$(STRIP) "$(DESTDIR)$(BINDIR)/amber"
	@echo "installed Amber $(VERSION) in $(DESTDIR)$(PREFIX): the library is $$(stat -c %s "$(DESTDIR)$(LIBDIR)/$(LIB_REAL)") bytes"
ifeq ($(HAVE_GTK),yes)
	$(GTK_MAKE) install
else
	@echo "pkg-config finds no gtk4 (libgtk-4-dev): the GTK 4 adapter, libamber-gtk, is not installed"
endif

uninstall:
	rm -f "$(DESTDIR)$(LIBDIR)/$(LIB_REAL)" "$(DESTDIR)$(LIBDIR)/$(LIB_SONAME)" "$(DESTDIR)$(LIBDIR)/libamber.so"
	rm -f "$(DESTDIR)$(INCLUDEDIR)/amber.h"
	cd "$(DESTDIR)$(INCLUDEDIR)/amber" 2>/dev/null && rm -f $(notdir $(HEADERS)) || true
	rm -f "$(DESTDIR)$(PKGCONFIGDIR)/amber.pc" "$(DESTDIR)$(BINDIR)/amber"
	-rmdir "$(DESTDIR)$(INCLUDEDIR)/amber" 2>/dev/null || true
ifeq ($(HAVE_GTK),yes)
	$(GTK_MAKE) uninstall
endif

# The GTK 4 adapter, libamber-gtk (bindings/gtk; needs libgtk-4-dev): built and installed with
# the rest when pkg-config finds gtk4, so that the library's build does not need GTK; or alone:
#   make gtk                      the adapter and its demo, against the library built here
#   make install-gtk [PREFIX=] [DESTDIR=]    lib/libamber-gtk.so.*, include/amber-gtk.h,
#                                 lib/pkgconfig/amber-gtk.pc (Requires: amber gtk4)
.PHONY: gtk install-gtk uninstall-gtk
GTK_MAKE = $(MAKE) -C bindings/gtk AMBER_LIBDIR=$(CURDIR)/.build-lib/lib PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" \
	LIBDIR="$(LIBDIR)" INCLUDEDIR="$(INCLUDEDIR)" PKGCONFIGDIR="$(PKGCONFIGDIR)"
gtk: $(LIB_BUILT)
	$(GTK_MAKE)
install-gtk: gtk
	$(GTK_MAKE) install
uninstall-gtk:
	$(GTK_MAKE) uninstall
