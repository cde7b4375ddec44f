#!/usr/bin/env bash
# Tests of the `amber` command. Builds nothing: give it the built binary.
#
#   swift build --product amber && Tests/cli/run.sh [path/to/amber]   (default .build/debug/amber)
#
# Makes sample files with python3 (plistlib, and a small hand-written bplist00 encoder for what
# plistlib cannot write: sets, non-string keys, 4-byte reals), runs amber on them and compares
# the JSON it prints, parsed with python3's json module, to the expected structures (types and
# key order included); for `amber inspect`, makes restoration archives in the engine's layout and
# checks the tree it prints, as text and as JSON, against the C demo's encrypted fixture too.
# Prints `ok - name` / `not ok - name` per check, then `N passed, N failed`;
# exits non-zero if any check failed.
set -u

AMBER=${1:-.build/debug/amber}
if [[ ! -x $AMBER ]]; then
    echo "amber binary not found or not executable: $AMBER" >&2
    exit 2
fi
AMBER="$(cd "$(dirname "$AMBER")" && pwd)/$(basename "$AMBER")"
FIXTURES="$(cd "$(dirname "$0")" && pwd)/fixtures"
REPO="$(cd "$(dirname "$0")/../.." && pwd)"
WORK=$(mktemp -d "${TMPDIR:-/tmp}/amber-cli-tests.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 2

passed=0
failed=0
pass() { echo "ok - $1"; passed=$((passed + 1)); }
fail() {
    echo "not ok - $1"
    if [[ -n ${2:-} ]]; then printf '%s\n' "$2" | head -20 | sed 's/^/#   /'; fi
    failed=$((failed + 1))
}

# ---------------------------------------------------------------------------------------------
# Sample files: each NAME.plist with, for the ones that print JSON, NAME.expected (the JSON
# structure amber must print, written by python's json so that reals stay reals).

cat > gen.py <<'PY'
import json, plistlib, struct, datetime
from plistlib import UID

def write(name, data):
    with open(name, 'wb') as f:
        f.write(data)

def expect(name, value):
    with open(name + '.expected', 'w') as f:
        json.dump(value, f, ensure_ascii=False)

# --- A minimal bplist00 encoder, for what plistlib cannot write.
class Set(list): pass          # a set (0xC), order kept
class Pairs(list): pass        # a dictionary with keys of any type: [(key, value), ...]
class F32(float): pass         # a 4-byte real

def bplist(top):
    objs = []
    def head(kind, n):
        if n < 15:
            return bytes([kind << 4 | n])
        return bytes([kind << 4 | 0xF, 0x11]) + struct.pack('>H', n)
    def add(v):
        i = len(objs)
        objs.append(None)
        if isinstance(v, bool):
            body = b'\x09' if v else b'\x08'
        elif isinstance(v, UID):
            body = b'\x87' + struct.pack('>Q', v.data)
        elif isinstance(v, int):
            body = b'\x13' + struct.pack('>q', v)
        elif isinstance(v, F32):
            body = b'\x22' + struct.pack('>f', v)
        elif isinstance(v, float):
            body = b'\x23' + struct.pack('>d', v)
        elif isinstance(v, bytes):
            body = head(0x4, len(v)) + v
        elif isinstance(v, str):
            if v.isascii():
                body = head(0x5, len(v)) + v.encode('ascii')
            else:
                u = v.encode('utf-16-be')
                body = head(0x6, len(u) // 2) + u
        elif isinstance(v, Set):
            refs = [add(x) for x in v]
            body = head(0xC, len(refs)) + b''.join(struct.pack('>H', r) for r in refs)
        elif isinstance(v, list) and not isinstance(v, Pairs):
            refs = [add(x) for x in v]
            body = head(0xA, len(refs)) + b''.join(struct.pack('>H', r) for r in refs)
        else:
            pairs = list(v.items()) if isinstance(v, dict) else list(v)
            keys = [add(k) for k, _ in pairs]
            values = [add(x) for _, x in pairs]
            body = head(0xD, len(pairs)) + b''.join(struct.pack('>H', r) for r in keys + values)
        objs[i] = body
        return i
    add(top)
    out = bytearray(b'bplist00')
    offsets = []
    for body in objs:
        offsets.append(len(out))
        out += body
    table = len(out)
    for o in offsets:
        out += struct.pack('>I', o)
    out += b'\0' * 6 + bytes([4, 2]) + struct.pack('>QQQ', len(objs), 0, table)
    return bytes(out)

# --- Keyed archives (the helper of the brief, keeping key order and allowing several $top keys).
def arch(objects, root=1, top=None):
    return plistlib.dumps({'$archiver': 'NSKeyedArchiver', '$version': 100000,
                           '$top': top or {'root': UID(root)}, '$objects': ['$null'] + objects},
                          fmt=plistlib.FMT_BINARY, sort_keys=False)

def cls(name, chain=None):
    return {'$classname': name, '$classes': chain or [name, 'NSObject']}

# 1. Binary, through plistlib: nested dictionaries in stored (unsorted) order, every scalar type.
sample = {
    'zeta': 1,
    'alpha': {'inner': {'deep': [1, -2, 'three']}, 'empty': {}, 'list': []},
    'ints': [0, -1, 255, 65536, -2**63, 2**63 - 1, 2**63, 2**64 - 1],
    'reals': [1.0, 2.5, -0.0, 1e300, 5e-324, 0.1, float('nan'), float('inf'), float('-inf')],
    'bools': [True, False],
    'data': b'\x00\x01\xfehello',
    'date': datetime.datetime(2001, 1, 1, 0, 1, 0),
    'before': datetime.datetime(1970, 1, 1),
    'uid': UID(42),
    'text': 'caf\u00e9 \u2603 \U0001F600 "quoted" back\\slash tab\t nl\n ctl\x01\x1f',
}
write('binary.plist', plistlib.dumps(sample, fmt=plistlib.FMT_BINARY, sort_keys=False))
expected = {
    'zeta': 1,
    'alpha': {'inner': {'deep': [1, -2, 'three']}, 'empty': {}, 'list': []},
    'ints': [0, -1, 255, 65536, -2**63, 2**63 - 1, 2**63, 2**64 - 1],
    'reals': [1.0, 2.5, -0.0, 1e300, 5e-324, 0.1, {'$real': 'nan'}, {'$real': 'inf'}, {'$real': '-inf'}],
    'bools': [True, False],
    'data': {'$data': 'AAH+aGVsbG8='},
    'date': {'$date': 60.0},
    'before': {'$date': -978307200.0},
    'uid': {'$uid': 42},
    'text': sample['text'],
}
expect('binary', expected)

# 2. The same through XML (no UID: XML cannot hold one; control characters neither).
xml_sample = dict(sample)
del xml_sample['uid']
xml_sample['text'] = 'caf\u00e9 \u2603 <tag> & "quoted" \'apos\''
write('xml.plist', plistlib.dumps(xml_sample, fmt=plistlib.FMT_XML, sort_keys=False))
xml_expected = dict(expected)
del xml_expected['uid']
xml_expected['text'] = xml_sample['text']
expect('xml', xml_expected)

# 3. Hand-written XML: comments, CDATA, character references, hex integers, self-closing
#    elements, Apple's spelling of the infinities, a {CF$UID} dictionary (read as a UID, as
#    CoreFoundation does), CR LF line ends.
write('handwritten-xml.plist', b'''<?xml version="1.0" encoding="UTF-8"?>\r
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\r
<!-- a comment -->\r
<plist version="1.0">\r
<dict>\r
  <key>b</key><string><![CDATA[<raw> & text]]></string>\r
  <key>a</key><string>&#233;&#x2603;&lt;&amp;&gt;</string>\r
  <key>hex</key><integer>0x10</integer>\r
  <key>inf</key><array><real>+infinity</real><real>-infinity</real><real>nan</real><real>3</real></array>\r
  <key>empty</key><array/>\r
  <key>emptydict</key><dict/>\r
  <key>emptystring</key><string/>\r
  <key>t</key><true/>\r
  <key>ref</key><dict><key>CF$UID</key><integer>7</integer></dict>\r
  <key>date</key><date>2001-01-02T00:00:00Z</date>\r
  <key>data</key><data>\r
    AAEC\r
    Aw==\r
  </data>\r
</dict>\r
</plist>\r
''')
expect('handwritten-xml', {
    'b': '<raw> & text', 'a': '\u00e9\u2603<&>', 'hex': 16,
    'inf': [{'$real': 'inf'}, {'$real': '-inf'}, {'$real': 'nan'}, 3.0],
    'empty': [], 'emptydict': {}, 'emptystring': '', 't': True,
    'ref': {'$uid': 7}, 'date': {'$date': 86400.0}, 'data': {'$data': 'AAECAw=='},
})

# 4. Hand-encoded binary: a set, dictionaries with non-string keys, 4-byte reals, UTF-16 strings.
#    (Keys that are containers are refused, as CoreFoundation's reader refuses them: see 10.)
write('crafted.plist', bplist({
    'set': Set([1, 'two', Set([])]),
    'intkeys': Pairs([(1, 'one'), ('two', 2)]),
    'nested': Pairs([(2.5, Pairs([(True, 'yes')]))]),
    'f32': [F32(0.1), F32(1.0), F32(float('inf')), F32(3.4028234663852886e38)],
    'utf16': '\u00e9t\u00e9 \U0001F600',
}))
expect('crafted', {
    'set': {'$set': [1, 'two', {'$set': []}]},
    'intkeys': {'$dict': [[1, 'one'], ['two', 2]]},
    'nested': {'$dict': [[2.5, {'$dict': [[True, 'yes']]}]]},
    'f32': [0.1, 1.0, {'$real': 'inf'}, 3.4028235e38],
    'utf16': '\u00e9t\u00e9 \U0001F600',
})

# 5. Exact text: indentation, separators, empty containers, escapes.
write('format.plist', plistlib.dumps({'a': [1, 2.5], 'b': {}, 'c': [], 'd': 'x\ny'},
                                     fmt=plistlib.FMT_BINARY, sort_keys=False))
with open('format.text', 'w') as f:
    f.write('{\n  "a": [\n    1,\n    2.5\n  ],\n  "b": {},\n  "c": [],\n  "d": "x\\u000ay"\n}\n')

# 6. Keyed: a cycle (root -> second -> root) and an array referenced twice; the array first
#    appears inside `second`, which is printed before the root's own reference to it.
NODE, ARRAY, CLS_ARRAY, ALPHA, BETA = 3, 4, 5, 6, 7
write('graph.plist', arch([
    {'$class': UID(NODE), 'name': UID(ALPHA), 'next': UID(2), 'shared': UID(ARRAY),
     'count': 3, 'ratio': 0.5, 'blob': b'\x01', '$$dollar': UID(ALPHA), 'none': UID(0)},   # 1
    {'$class': UID(NODE), 'name': UID(BETA), 'next': UID(1), 'shared': UID(ARRAY)},        # 2
    cls('Node'),                                                                           # 3
    {'$class': UID(CLS_ARRAY), 'NS.objects': [UID(ALPHA), UID(ALPHA), UID(BETA)]},         # 4
    cls('NSArray'),                                                                        # 5
    'alpha', 'beta',                                                                       # 6, 7
]))
shared = {'$id': ARRAY, '$array': ['alpha', 'alpha', 'beta']}
expect('graph', {'root': {
    '$id': 1, '$class': 'Node', 'name': 'alpha',
    'next': {'$class': 'Node', 'name': 'beta', 'next': {'$ref': 1}, 'shared': shared},
    'shared': {'$ref': ARRAY}, 'count': 3, 'ratio': 0.5, 'blob': {'$data': 'AQ=='},
    '$$dollar': 'alpha', 'none': None,
}})

# The same archive as XML, UIDs written {CF$UID: n} as Apple's plutil writes them.
def xml_uids(v):
    if isinstance(v, UID): return {'CF$UID': v.data}
    if isinstance(v, dict): return {k: xml_uids(x) for k, x in v.items()}
    if isinstance(v, list): return [xml_uids(x) for x in v]
    return v
with open('graph.plist', 'rb') as f:
    write('graph-xml.plist', plistlib.dumps(xml_uids(plistlib.load(f)), fmt=plistlib.FMT_XML, sort_keys=False))

# 7. Keyed: an object that refers to itself, and several $top keys in stored order.
write('selfref.plist', arch([
    {'$class': UID(2), 'me': UID(1), 'items': UID(3)},
    cls('Loop'),
    {'$class': UID(4), 'NS.objects': [UID(3), UID(1)]},
    cls('NSMutableArray', ['NSMutableArray', 'NSArray', 'NSObject']),
], top={'second': UID(3), 'first': UID(1)}))
expect('selfref', {
    'second': {'$id': 3, '$array': [{'$ref': 3}, {'$id': 1, '$class': 'Loop', 'me': {'$ref': 1}, 'items': {'$ref': 3}}]},
    'first': {'$ref': 1},
})

# 8. Keyed: Foundation's classes as their natural values.
objs = ['$null']
def o(v):
    objs.append(v)
    return UID(len(objs) - 1)
classes = {}
def c(name):
    if name not in classes:
        classes[name] = o(cls(name))
    return classes[name]
root_keys, root_values = [], []
def entry(key, value):
    root_keys.append(o(key) if not isinstance(key, UID) else key)
    root_values.append(value)
root = o(None)  # filled in below, so that the root is UID 1
shared_string = o('shared')
entry('array', o({'$class': c('NSMutableArray'), 'NS.objects': [o(1), o('two'), o({'$class': c('NSNull')}), UID(0)]}))
entry('set', o({'$class': c('NSSet'), 'NS.objects': [o(2.0)]}))
entry('string', o({'$class': c('NSString'), 'NS.string': 'hello'}))
entry('mutable', o({'$class': c('NSMutableString'), 'NS.string': 'm\u00fct'}))
entry('data', o({'$class': c('NSData'), 'NS.bytes': b'\x00\x01'}))
entry('mdata', o({'$class': c('NSMutableData'), 'NS.data': b'\xff'}))
entry('date', o({'$class': c('NSDate'), 'NS.time': 1.5}))
entry('null', UID(0))
entry('uuid', o({'$class': c('NSUUID'), 'NS.uuidbytes': bytes.fromhex('00112233445566778899aabbccddeeff')}))
entry('path0', o({'$class': c('NSIndexPath'), 'NSIndexPathLength': 0}))
entry('path1', o({'$class': c('NSIndexPath'), 'NSIndexPathLength': 1, 'NSIndexPathValue': 5}))
entry('path3', o({'$class': c('NSIndexPath'), 'NSIndexPathLength': 3, 'NSIndexPathData': o(bytes([1, 0xAC, 0x02, 2]))}))
entry('intkeys', o({'$class': c('NSDictionary'), 'NS.keys': [o(1), shared_string], 'NS.objects': [o('one'), o(True)]}))
entry('plain', o({'$class': c('NSArray'), 'NS.objects': [o(7), o(-1.25), o(b'\x02'), shared_string, shared_string]}))
entry('$dollar', shared_string)
entry('indexset', o({'$class': c('NSIndexSet'), 'NSRangeCount': 2, 'NSRangeData': o(bytes([1, 2, 0xAC, 0x02, 1]))}))
entry('range', o({'$class': c('NSMutableIndexSet'), 'NSRangeCount': 1, 'NSLocation': 4, 'NSLength': 3}))
# Foundation's other encodings (issue 39): NSRangeData and NSIndexPathData as an NSMutableData
# instance, NS.data in place or a reference to the bytes.
entry('msetdata', o({'$class': c('NSMutableIndexSet'), 'NSRangeCount': 2,
                     'NSRangeData': o({'$class': c('NSMutableData'), 'NS.data': bytes([1, 2, 0xAC, 0x02, 1])})}))
entry('mpathdata', o({'$class': c('NSIndexPath'), 'NSIndexPathLength': 3,
                      'NSIndexPathData': o({'$class': c('NSMutableData'), 'NS.data': o(bytes([1, 0xAC, 0x02, 2]))})}))
entry('counted', o({'$class': c('NSCountedSet'), 'NS.count': 2, 'NS.object0': shared_string, 'NS.count0': 3,
                    'NS.object1': o('once'), 'NS.count1': 1}))
objs[root.data] = {'$class': c('NSDictionary'), 'NS.keys': root_keys, 'NS.objects': root_values}
write('foundation.plist', arch(objs[1:]))
expect('foundation', {'root': {
    'array': [1, 'two', None, None],
    'set': {'$set': [2.0]},
    'string': 'hello',
    'mutable': 'm\u00fct',
    'data': {'$data': 'AAE='},
    'mdata': {'$data': '/w=='},
    'date': {'$date': 1.5},
    'null': None,
    'uuid': {'$uuid': '00112233-4455-6677-8899-AABBCCDDEEFF'},
    'path0': {'$indexPath': []},
    'path1': {'$indexPath': [5]},
    'path3': {'$indexPath': [1, 300, 2]},
    'intkeys': {'$dict': [[1, 'one'], ['shared', True]]},
    'plain': [7, -1.25, {'$data': 'Ag=='}, 'shared', 'shared'],
    '$$dollar': 'shared',
    'indexset': {'$indexSet': [[1, 2], [300, 1]]},
    'range': {'$indexSet': [[4, 3]]},
    'msetdata': {'$indexSet': [[1, 2], [300, 1]]},
    'mpathdata': {'$indexPath': [1, 300, 2]},
    'counted': {'$countedSet': [['shared', 3], ['once', 1]]},
}})

# 9. Keyed: nesting depth. A chain of 500 objects prints; one of 600 is refused with one line.
def chain(n):
    objects = [{'$class': UID(n + 1), 'next': UID(i + 2)} if i < n - 1 else {'$class': UID(n + 1)} for i in range(n)]
    return arch(objects + [cls('Link')])
write('chain500.plist', chain(500))
write('chain600.plist', chain(600))

# 10. Files to reject.
write('truncated.plist', plistlib.dumps(sample, fmt=plistlib.FMT_BINARY)[:-7])
write('not-keyed.plist', plistlib.dumps({'$archiver': 'Other', '$version': 100000}, fmt=plistlib.FMT_BINARY))
write('newline-in-reason.plist', plistlib.dumps({'$archiver': 'evil\nsecond line', '$version': 100000}, fmt=plistlib.FMT_BINARY))
write('bad-uid.plist', arch([{'$class': UID(2), 'x': UID(99)}, cls('Thing')]))
write('container-key.plist', bplist(Pairs([('ok', 1), (['a'], 2)])))

# 11. Keyed archives whose structure is inconsistent (issue 26): each refused with one line
#     naming the problem and the object.
def one(name, fields, extra=()):
    return arch([dict({'$class': UID(2)}, **fields), cls(name)] + list(extra))
bad = {
    'dict-counts': (one('NSDictionary', {'NS.keys': [UID(3), UID(3)], 'NS.objects': [UID(3)]}, ['k']), 'NS.keys'),
    'no-objects': (one('NSArray', {'NS.other': 1}), 'no NS.objects'),
    'objects-string': (one('NSMutableArray', {'NS.objects': 'x'}), 'NS.objects is not an array'),
    'string-int': (one('NSString', {'NS.string': 5}), 'NS.string'),
    'data-string': (one('NSMutableData', {'NS.data': 'x'}), 'NS.data'),
    'date-string': (one('NSDate', {'NS.time': 'now'}), 'NS.time'),
    'date-nan': (one('NSDate', {'NS.time': float('nan')}), 'not a number'),
    'date-infinite': (one('NSDate', {'NS.time': float('-inf')}), 'infinite'),
    'date-year-10000': (one('NSDate', {'NS.time': 252423993600.0}), 'outside years 1 to 9999'),
    'uuid-short': (one('NSUUID', {'NS.uuidbytes': bytes(15)}), 'NS.uuidbytes'),
    'path-length': (one('NSIndexPath', {'NSIndexPathLength': 3, 'NSIndexPathData': UID(3)}, [bytes([1, 2])]), '3 indexes in 2 bytes'),
    'path-65-bits': (one('NSIndexPath', {'NSIndexPathLength': 2, 'NSIndexPathData': bytes([0xFF] * 9 + [2, 1])}), 'wider than 64 bits'),
    'indexset-count': (one('NSIndexSet', {'NSRangeCount': 2**40, 'NSRangeData': UID(3)}, [bytes(4)]), 'ranges in 4 bytes'),
    'countedset-count': (one('NSCountedSet', {'NS.count': 2**40, 'NS.object0': UID(3), 'NS.count0': 1}, ['a']), 'objects in'),
    'countedset-missing': (one('NSCountedSet', {'NS.count': 2, 'NS.object0': UID(3), 'NS.count0': 1, 'NS.object7': UID(3), 'NS.count7': 1}, ['a']), 'NS.object7'),
    'root-string': (plistlib.dumps({'$archiver': 'NSKeyedArchiver', '$version': 100000, '$top': {'root': 'x'},
                                    '$objects': ['$null']}, fmt=plistlib.FMT_BINARY), 'by reference'),
    'root-number': (plistlib.dumps({'$archiver': 'NSKeyedArchiver', '$version': 100000, '$top': {'root': 3},
                                    '$objects': ['$null']}, fmt=plistlib.FMT_BINARY), 'in place, not a reference'),
    'no-root': (plistlib.dumps({'$archiver': 'NSKeyedArchiver', '$version': 100000, '$top': {'n': 3},
                                '$objects': ['$null']}, fmt=plistlib.FMT_BINARY), 'has no root'),
    'objects-dict': (plistlib.dumps({'$archiver': 'NSKeyedArchiver', '$version': 100000, '$top': {'root': UID(1)},
                                     '$objects': {'0': '$null'}}, fmt=plistlib.FMT_BINARY), '$objects is not an array'),
    'int-key': (bplist({'$archiver': 'NSKeyedArchiver', '$version': 100000, '$top': {'root': UID(1)},
                        '$objects': ['$null', Pairs([('$class', UID(2)), (7, 'x'), ('NS.objects', [])]), cls('NSArray')]}), 'not a string'),
}
with open('bad-keyed.list', 'w') as f:
    for name, (data, reason) in bad.items():
        write(f'bad-{name}.plist', data)
        f.write(f'{name}\t{reason}\n')
write('bad.xml.plist', b'<?xml version="1.0"?>\n<plist version="1.0">\n<dict><key>a</key><integer>1</intger></dict></plist>\n')
write('text.plist', b'hello, this is not a property list at all, not even close to one\n')
PY
if ! python3 gen.py; then
    echo "could not make the sample files" >&2
    exit 2
fi

# Compares the JSON amber printed (file $1) with the expected structure (file $2): same types
# (1 and 1.0 differ, true and 1 differ), same values, same key order.
cat > compare.py <<'PY'
import json, math, sys
def same(a, b, path='$'):
    if type(a) is not type(b):
        return f'{path}: {type(a).__name__} {a!r}, expected {type(b).__name__} {b!r}'
    if isinstance(a, dict):
        if list(a) != list(b):
            return f'{path}: keys {list(a)}, expected {list(b)}'
        for k in a:
            r = same(a[k], b[k], f'{path}.{k}')
            if r: return r
    elif isinstance(a, list):
        if len(a) != len(b):
            return f'{path}: {len(a)} items, expected {len(b)}'
        for i, (x, y) in enumerate(zip(a, b)):
            r = same(x, y, f'{path}[{i}]')
            if r: return r
    elif isinstance(a, float):
        if a != b or math.copysign(1, a) != math.copysign(1, b):
            return f'{path}: {a!r}, expected {b!r}'
    elif a != b:
        return f'{path}: {a!r}, expected {b!r}'
    return None
with open(sys.argv[1], encoding='utf-8') as f:
    text = f.read()
try:
    got = json.loads(text)
except ValueError as e:
    sys.exit(f'not JSON: {e}\n{text[:400]}')
with open(sys.argv[2], encoding='utf-8') as f:
    want = json.load(f)
r = same(got, want)
if r: sys.exit(r)
PY

# run ARGS...: runs amber; leaves its exit status in $rc, its output in out and err.
run() {
    "$AMBER" "$@" > out 2> err
    rc=$?
}

# check_json NAME SAMPLE ARGS...: amber ARGS prints JSON equal to SAMPLE.expected.
check_json() {
    local name=$1 sample=$2
    shift 2
    run "$@"
    if [[ $rc -ne 0 ]]; then
        fail "$name" "exit status $rc: $(cat err)"
    elif [[ -s err ]]; then
        fail "$name" "unexpected standard error: $(cat err)"
    elif ! msg=$(python3 compare.py out "$sample.expected" 2>&1); then
        fail "$name" "$msg"
    else
        pass "$name"
    fi
}

# check_reject NAME FILE [REASON] ARGS...: amber ARGS exits 1, prints nothing on standard
# output and exactly one line on standard error, `amber: FILE: ` then the reason (which, if
# given, the line must contain).
check_reject() {
    local name=$1 file=$2 reason=$3
    shift 3
    run "$@"
    local lines
    lines=$(wc -l < err | tr -d ' ')
    local line
    line=$(cat err)
    if [[ $rc -ne 1 ]]; then
        fail "$name" "exit status $rc, expected 1; stderr: $line"
    elif [[ -s out ]]; then
        fail "$name" "unexpected standard output: $(head -c 300 out)"
    elif [[ $lines -ne 1 || $(tail -c 1 err | od -An -c | tr -d ' ') != '\n' ]]; then
        fail "$name" "expected exactly one line on standard error, got $lines: $line"
    elif [[ $line != "amber: $file: "?* ]]; then
        fail "$name" "the line does not start with 'amber: $file: ': $line"
    elif [[ -n $reason && $line != *"$reason"* ]]; then
        fail "$name" "the line does not contain '$reason': $line"
    else
        pass "$name"
    fi
}

# ---------------------------------------------------------------------------------------------
# Plain property lists.

check_json "binary plist: nested dictionaries in stored order, every scalar type" binary dump binary.plist
check_json "XML plist (plistlib): the same values, stored order kept" xml dump xml.plist
check_json "XML plist (by hand): CDATA, references, hex, infinities, CF\$UID, CR LF" handwritten-xml dump handwritten-xml.plist
check_json "binary plist (by hand): sets, non-string keys, 4-byte reals, UTF-16" crafted dump crafted.plist

run dump format.plist
if [[ $rc -eq 0 ]] && cmp -s out format.text; then
    pass "output text: two-space indentation, empty containers, control characters as \\u00XX"
else
    fail "output text: two-space indentation, empty containers, control characters as \\u00XX" "$(diff out format.text)"
fi

run dump binary.plist
if [[ $rc -eq 0 ]] && grep -q $'"caf\xc3\xa9 \xe2\x98\x83 \xf0\x9f\x98\x80 ' out && grep -qF 'ctl\u0001\u001f"' out && grep -qF ' \"quoted\" back\\slash tab\u0009 nl\u000a ' out; then
    pass "strings: non-ASCII raw UTF-8, quotes and backslashes escaped"
else
    fail "strings: non-ASCII raw UTF-8, quotes and backslashes escaped" "$(grep '"text"' out)"
fi
if [[ $rc -eq 0 ]] && grep -q '^    18446744073709551615$' out && grep -q '^    -9223372036854775808,$' out && grep -q '^    1\.0,$' out && grep -q '^    -0\.0,$' out; then
    pass "numbers: 64-bit integers exact, reals with a decimal point"
else
    fail "numbers: 64-bit integers exact, reals with a decimal point" "$(sed -n '/"ints"/,/"bools"/p' out)"
fi

run dump graph.plist
if [[ $rc -eq 0 ]] && python3 -c '
import json, sys
d = json.load(open("out"))
assert d["$archiver"] == "NSKeyedArchiver" and d["$top"] == {"root": {"$uid": 1}}
assert d["$objects"][0] == "$null" and d["$objects"][1]["next"] == {"$uid": 2}
' 2> msg; then
    pass "plain dump of a keyed archive shows its UIDs"
else
    fail "plain dump of a keyed archive shows its UIDs" "$(cat msg)"
fi

# ---------------------------------------------------------------------------------------------
# Keyed archives.

check_json "keyed: a cycle and a shared array get \$id once and \$ref after" graph dump --keyed graph.plist
check_json "keyed: an XML archive with {CF\$UID} references" graph dump --keyed graph-xml.plist
check_json "keyed: self-reference, shared array holding itself, \$top keys in stored order" selfref dump --keyed selfref.plist
check_json "keyed: Foundation classes as natural JSON values" foundation dump --keyed foundation.plist

run dump --keyed chain500.plist
if [[ $rc -eq 0 ]] && python3 -c '
import json
d = json.load(open("out"))["root"]
n = 1
while "next" in d:
    d = d["next"]; n += 1
assert n == 500, n
' 2> msg; then
    pass "keyed: a chain of 500 objects prints in full"
else
    fail "keyed: a chain of 500 objects prints in full" "exit $rc $(cat err msg)"
fi
check_reject "keyed: a chain of 600 objects is refused with one line" chain600.plist "deeper than the limit" dump --keyed chain600.plist

# ---------------------------------------------------------------------------------------------
# Rejected files and usage.

check_reject "truncated binary plist: exit 1, one line" truncated.plist "" dump truncated.plist
check_reject "truncated binary plist, keyed: exit 1, one line" truncated.plist "" dump --keyed truncated.plist
check_reject "not a property list: exit 1, one line" text.plist "bplist" dump text.plist
check_reject "not a keyed archive: exit 1, the library's reason" not-keyed.plist "not 'NSKeyedArchiver'" dump --keyed not-keyed.plist
check_reject "a reason holding a newline still takes one line" newline-in-reason.plist "NSKeyedArchiver" dump --keyed newline-in-reason.plist
check_reject "keyed: UID out of range" bad-uid.plist "out of range" dump --keyed bad-uid.plist
check_reject "a dictionary keyed by an array" container-key.plist "cannot be a container" dump container-key.plist
while IFS=$'\t' read -r name reason; do
    check_reject "keyed, inconsistent: $name" "bad-$name.plist" "$reason" dump --keyed "bad-$name.plist"
done < bad-keyed.list
check_reject "malformed XML: exit 1, one line with the line number" bad.xml.plist "line 3" dump bad.xml.plist
check_reject "missing file: exit 1, the I/O error" "$WORK/missing.plist" "No such file" dump "$WORK/missing.plist"
check_reject "a directory: exit 1, the I/O error" "$WORK" "directory" dump "$WORK"

# ---------------------------------------------------------------------------------------------
# Restoration archives in Amber's envelope (R20). fixtures/homepwner.archive was written by the C
# demo (bindings/c/demo/homepwner.c, run 1) with its default key file, fixtures/homepwner.key, by
# a release that wrote envelope format 1 (one AES-GCM seal): kept so that such archives are
# checked to still open. fixtures/homepwner-v2.archive: the same demo, same key, envelope format 2
# (sealed in 1 MiB chunks, as written before 64 KiB ones).

cp "$FIXTURES/homepwner.archive" sealed.archive
cp "$FIXTURES/homepwner.key" private.key && chmod 600 private.key
cp "$FIXTURES/homepwner.key" open.key && chmod 644 open.key
run info sealed.archive
if [[ $rc -eq 0 ]] && grep -q "^protection: AES-256-GCM" out && grep -q "^bundle version: 4.2" out \
    && grep -q "^restoration archive, envelope format 1$" out && ! grep -q "chunks" out; then
    pass "info: an encrypted archive's protection and bundle version, without its key"
else fail "info: an encrypted archive" "$(cat out err)"; fi
cp "$FIXTURES/homepwner-v2.archive" sealed2.archive
run info sealed2.archive
if [[ $rc -eq 0 ]] && grep -q "^restoration archive, envelope format 2$" out && grep -q "^protection: AES-256-GCM" out \
    && grep -q "^sealed in chunks of: 1048576 bytes$" out && grep -q "^bundle version: 4.2" out; then
    pass "info: an envelope of format 2: its format and chunk size"
else fail "info: format 2" "$(cat out err)"; fi
check_reject "dump: an encrypted archive without --key-file says so" sealed.archive "--key-file" dump --keyed sealed.archive
run dump --keyed --key-file private.key sealed.archive
if [[ $rc -eq 0 ]] && python3 -c 'import json,sys; d=json.load(open("out")); assert d["app"]["bundleVersion"] == "4.2"; assert len(d["objects"]) == 8' 2>/dev/null; then
    pass "dump --keyed --key-file: the encrypted archive opened and resolved"
else fail "dump --key-file" "$(head -c 300 out; cat err)"; fi
check_reject "dump: a key file others can read is refused" sealed.archive "group or others" dump --keyed --key-file open.key sealed.archive
head -c 32 /dev/urandom > wrong.key && chmod 600 wrong.key
check_reject "dump: the wrong key does not authenticate" sealed.archive "does not authenticate" dump --keyed --key-file wrong.key sealed.archive
python3 - <<'PY'
data = bytearray(open("sealed.archive", "rb").read())
data[-1] ^= 1
open("tampered.archive", "wb").write(data)
PY
check_reject "dump: a tampered archive does not authenticate" tampered.archive "does not authenticate" dump --keyed --key-file private.key tampered.archive
python3 - <<'PY'
plist = open("graph.plist", "rb").read()
version = b"1.0"
open("plain.archive", "wb").write(b"AMBERENV" + bytes([1, 0, 0, len(version)]) + version + plist)
PY
run info plain.archive
if [[ $rc -eq 0 ]] && grep -q "^protection: none (not encrypted)" out; then
    pass "info: an archive stored without encryption says so"
else fail "info: unencrypted" "$(cat out err)"; fi
run dump --keyed plain.archive
if [[ $rc -eq 0 ]] && cmp -s out <("$AMBER" dump --keyed graph.plist); then
    pass "dump: an unencrypted envelope opens without a key"
else fail "dump: unencrypted envelope" "$(head -c 300 out; cat err)"; fi
run info binary.plist
if [[ $rc -eq 0 ]] && grep -q "not in an envelope" out; then pass "info: a plain property list"; else fail "info: plain" "$(cat out err)"; fi

# ---------------------------------------------------------------------------------------------
# amber inspect: a restoration archive's tree. rich.archive is made here in the engine's layout
# (ArchiveLayout in Sources/AmberCore/Restoration) and stored without encryption: every kind of
# value, references, a stack position, a view's standard state, a plain object, an object with
# its whole path, a coding-class instance met twice, a snapshot. The encrypted fixture is the C
# demo's (above).

cat > restoration.py <<'PY'
import plistlib, struct
from plistlib import UID

class Archive:
    """A restoration archive in the engine's layout (ArchiveLayout), built object by object."""
    def __init__(self):
        self.objects = ['$null']
        self.classes = {}
    def add(self, value):
        self.objects.append(value)
        return UID(len(self.objects) - 1)
    def cls(self, name, chain=None):
        if name not in self.classes:
            self.classes[name] = self.add({'$classname': name, '$classes': chain or [name, 'NSObject']})
        return self.classes[name]
    def inst(self, name, fields, chain=None):
        d = {'$class': None}
        d.update(fields)
        u = self.add(d)
        d['$class'] = self.cls(name, chain)
        return u
    def array(self, items):
        return self.inst('NSArray', {'NS.objects': items})
    def strings(self, items):
        return self.array([self.add(s) for s in items])
    def date(self, t):
        return self.inst('NSDate', {'NS.time': t})
    def index_path(self, p):
        if len(p) == 1:
            return self.inst('NSIndexPath', {'NSIndexPathLength': 1, 'NSIndexPathValue': p[0]})
        leb = bytearray()
        for i in p:
            while True:
                b = i & 0x7F
                i >>= 7
                leb.append(b | (0x80 if i else 0))
                if not i: break
        return self.inst('NSIndexPath', {'NSIndexPathLength': len(p), 'NSIndexPathData': self.add(bytes(leb))})
    def reference(self, index):
        return self.inst('AmberReference', {'index': index})
    def record(self, cls, kind, ident, relation, state, parent=None, path=None, root=False, position=0,
               restoration_class=None, blueprint=None):
        f = {'class': self.add(cls), 'kind': kind, 'id': self.add(ident)}
        if position: f['position'] = position
        if parent is not None: f['parent'] = parent
        f['relation'] = relation
        if path is not None: f['path'] = self.strings(path)
        if root: f['root'] = True
        if restoration_class: f['restorationClass'] = self.add(restoration_class)
        if blueprint: f['blueprint'] = self.add(blueprint)
        f['state'] = self.inst('AmberState', state)
        return self.inst('AmberObjectRecord', f)
    def finish(self, top):
        return plistlib.dumps({'$archiver': 'NSKeyedArchiver', '$version': 100000, '$top': top,
                               '$objects': self.objects}, fmt=plistlib.FMT_BINARY, sort_keys=False)

def envelope(plist, version=b'7.1'):
    return b'AMBERENV' + bytes([1, 0, 0, len(version)]) + version + plist

a = Archive()
app = a.inst('AmberAppState', {
    'lastTab': 2,
    'recent': a.strings(['Spork', 'Bear']),
    'bundleVersion': a.add('7.1'),
    'interfaceIdiom': a.add('desktop'),
    'timestamp': a.date(700000000.25),
    'systemVersion': a.add('6.1.0'),
})
item = a.inst('BNRItem', {'itemName': a.add('Rusty Bear'), 'valueInDollars': 42, 'owner': UID(0)})
records = [
    # 0: /Nav, a root with a restoration class and a blueprint.
    a.record('UINavigationController', 0, 'Nav', 0, {'title': a.add('Homepwner')}, path=['Nav'], root=True,
             restoration_class='HomepwnerScreens', blueprint='Main.Nav'),
    # 1: /Nav/Items, every kind of value.
    a.record('ItemsViewController', 0, 'Items', 1, {
        'selectedRow': 3,
        'ratio': 0.5,
        'editing': False,
        'name': a.add('caf\u00e9 "quoted"\n'),
        'thumb': a.add(bytes(range(20))),
        'saved': a.date(0.0),
        'selection': a.index_path([0, 300]),
        'single': a.index_path([7]),
        'tags': a.strings(['a', 'b']),
        'sizes': a.inst('NSDictionary', {'NS.keys': [a.add('w'), a.add('h')], 'NS.objects': [a.add(1.5), a.add(2)]}),
        'uuid': a.inst('NSUUID', {'NS.uuidbytes': bytes.fromhex('00112233445566778899aabbccddeeff')}),
        'detail': a.reference(4),
        'source': a.reference(3),
        'nothing': UID(0),
        'item': item,
        'items': a.array([item, item]),
    }, parent=0),
    # 2: /Nav/Items/table, a view with its standard state.
    a.record('UITableView', 1, 'table', 3, {
        'amber.view.kind': 2,
        'amber.view.contentOffset': a.array([a.add(0.0), a.add(120.0)]),
        'amber.view.selectedItems': a.array([a.add('item-7'), a.index_path([0, 2])]),
        'amber.view.editing': True,
    }, parent=1),
    # 3: /Nav/Items/source, a plain object (a data source), recorded because referenced.
    a.record('ItemDataSource', 2, 'source', 4, {'count': 12}, parent=1),
    # 4: /Nav/Detail[1], the second Detail of the stack (its path is Nav/Detail; R3).
    a.record('DetailViewController', 0, 'Detail', 1, {'back': a.reference(1)}, parent=0, position=1,
             restoration_class='HomepwnerScreens'),
    # 5: /Elsewhere/Orphan, referenced, outside every root: recorded with its whole path.
    a.record('OrphanController', 0, 'Orphan', 0, {}, path=['Elsewhere', 'Orphan']),
]
objects = a.array(records)
snapshot = a.add(b'\x89PNG fake snapshot bytes')
top = {'amber.format': 1, 'app': app, 'objects': objects, 'amber.snapshot': snapshot}
open('rich.archive', 'wb').write(envelope(a.finish(top)))

b = Archive()
app = b.inst('AmberAppState', {'bundleVersion': b.add('1.0')})
records = [b.record('RootController', 0, 'Root', 0, {}, path=['Root'], root=True)]
top = {'amber.format': 1, 'app': app, 'objects': b.array(records), 'amber.snapshotIgnored': True}
open('ignored.archive', 'wb').write(envelope(b.finish(top)))

# A damaged one: a record naming a later record as its parent.
c = Archive()
app = c.inst('AmberAppState', {'bundleVersion': c.add('1.0')})
records = [c.record('RootController', 0, 'Root', 0, {}, path=['Root'], root=True),
           c.record('ChildController', 0, 'Child', 1, {}, parent=5)]
top = {'amber.format': 1, 'app': app, 'objects': c.array(records)}
open('bad-parent.archive', 'wb').write(envelope(c.finish(top)))

# Hostile values: an array that contains itself, instances in a cycle, a chain nested past the
# limit, a reference to no record. They show as unreadable, or once; the rest prints.
h = Archive()
app = h.inst('AmberAppState', {'bundleVersion': h.add('1.0')})
loop = h.inst('NSArray', {'NS.objects': []})
node = h.inst('Node', {})
h.objects[node.data]['me'] = node
h.objects[loop.data]['NS.objects'] = [loop, node]
chain = prev = h.inst('Link', {})
for i in range(600):
    n = h.inst('Link', {})
    h.objects[prev.data]['next'] = n
    prev = n
records = [h.record('RootController', 0, 'Root', 0, {'loop': loop, 'cycle': node, 'chain': chain, 'bad': h.reference(99), 'after': 1},
                    path=['Root'], root=True)]
top = {'amber.format': 1, 'app': app, 'objects': h.array(records)}
open('hostile.archive', 'wb').write(envelope(h.finish(top)))
PY
if ! python3 restoration.py; then
    echo "could not make the restoration archives" >&2
    exit 2
fi

cat > rich.expected <<'TXT'
file: rich.archive (@SIZE@ bytes)
envelope: format 1, none (not encrypted)
application:
  bundle version: "7.1"
  interface idiom: "desktop"
  timestamp: 2023-03-08T20:26:40.250Z
  system version: "6.1.0"
  lastTab = 2
  recent = ["Spork", "Bear"]
snapshot: 24 bytes
objects: 6
/Nav: UINavigationController, controller, root
  restoration class: HomepwnerScreens
  blueprint: Main.Nav
  title = "Homepwner"
  /Nav/Items: ItemsViewController, controller, child
    selectedRow = 3
    ratio = 0.5
    editing = false
    name = "café \"quoted\"\u000a"
    thumb = data(20 bytes: 000102030405060708090a0b0c0d0e0f...)
    saved = date(2001-01-01T00:00:00.000Z)
    selection = indexPath(0, 300)
    single = indexPath(7)
    tags = ["a", "b"]
    sizes = {"w": 1.5, "h": 2}
    uuid = uuid(00112233-4455-6677-8899-AABBCCDDEEFF)
    detail = -> /Nav/Detail[1]
    source = -> /Nav/Items/source
    nothing = null
    item = <BNRItem #13> {itemName: "Rusty Bear", valueInDollars: 42, owner: null}
    items = [<BNRItem #13> (shown above), <BNRItem #13> (shown above)]
    /Nav/Items/table: UITableView, view
      amber.view.kind = 2 (table)
      amber.view.contentOffset = [0.0, 120.0]
      amber.view.selectedItems = ["item-7", indexPath(0, 2)]
      amber.view.editing = true
    /Nav/Items/source: ItemDataSource, object, restoration child
      count = 12
  /Nav/Detail[1]: DetailViewController, controller, child
    restoration class: HomepwnerScreens
    back = -> /Nav/Items
  /Elsewhere/Orphan: OrphanController, controller
TXT
sed -i "s/@SIZE@/$(wc -c < rich.archive | tr -d ' ')/" rich.expected

run inspect rich.archive
if [[ $rc -eq 0 && ! -s err ]] && diff -u rich.expected out > msg; then
    pass "inspect: an unencrypted archive, no key: the tree, indented by depth, every kind of value"
else fail "inspect: an unencrypted archive" "exit $rc $(cat err msg)"; fi

# R31: --sizes, the bytes of each object and of each key. "title" holds "Homepwner": a UID (2
# bytes) to a 9-character ASCII string (1 + 9 bytes).
run inspect --sizes rich.archive
if [[ $rc -eq 0 && ! -s err ]] && python3 - > msg 2>&1 <<'PY'
import os, re
lines = open("out").read().splitlines()
assert lines[0] == "file: rich.archive (%d bytes)" % os.path.getsize("rich.archive"), lines[0]
assert re.fullmatch(r"archive: \d+ bytes before the envelope", lines[1]), lines[1]
count = int(lines[2].split(": ")[1])
records = [l for l in lines[3:lines.index("largest:")] if l.lstrip().startswith("/")]
assert len(records) == count, (records, count)
assert records[0].startswith("/Nav (UINavigationController): "), records[0]
assert "    title: 12 bytes" in lines, lines
assert all(int(l.rsplit(": ", 1)[1].split()[0]) > 0 for l in lines[3:] if l.endswith(" bytes")), lines
largest = lines[lines.index("largest:") + 1:]
assert 0 < len(largest) <= 10 and largest[0].startswith("  1. /"), largest
sizes = [int(l.rsplit(": ", 1)[1].split()[0]) for l in largest]
assert sizes == sorted(sizes, reverse=True), sizes
biggest = max(int(l.rsplit(": ", 1)[1].split()[0]) for l in records)
assert sizes[0] == biggest, (sizes, biggest)
PY
then
    pass "inspect --sizes (R31): the bytes of each object and each key, then the largest objects, the largest first"
else fail "inspect --sizes" "exit $rc $(cat err msg; head -30 out)"; fi
# R34 R31: --sizes sizes a sensitive value by its real size, and shows no value of it.
python3 - <<'PY'
src = open('restoration.py').read()
exec(src[:src.index('a = Archive()')])
s = Archive()
app = s.inst('AmberAppState', {'bundleVersion': s.add('1.0')})
state = {'password': s.add('SECRET-' + 'x' * 393), 'amber.sensitive': s.strings(['password']), 'title': s.add('Login')}
records = [s.record('LoginController', 0, 'Login', 0, state, path=['Login'], root=True)]
open('sensitive.archive', 'wb').write(envelope(s.finish({'amber.format': 3, 'app': app, 'objects': s.array(records)})))
PY
run inspect --sizes sensitive.archive
if [[ $rc -eq 0 && ! -s err ]] && ! grep -q "SECRET" out && python3 - > msg 2>&1 <<'PY'
lines = open("out").read().splitlines()
password = [l for l in lines if l.strip().startswith("password: ")]
assert len(password) == 1, lines
size = int(password[0].split(": ")[1].split()[0])
assert size >= 400, ("the sensitive value's real size (400 characters), not its mask's", password[0])
PY
then
    pass "inspect --sizes (R34, R31): a sensitive value sized by its real size, its value not shown"
else fail "inspect --sizes of a sensitive value" "exit $rc $(cat err msg; head -30 out)"; fi
run inspect --sizes --json rich.archive
if [[ $rc -ne 0 ]] && grep -q "give one" err; then
    pass "inspect --sizes --json: one output at a time"
else fail "inspect --sizes --json" "exit $rc $(cat err)"; fi

run inspect --json rich.archive
if [[ $rc -eq 0 && ! -s err ]] && python3 -c 'import json,sys; json.load(sys.stdin)' < out && python3 -c '
import json, os
d = json.load(open("out"))
assert d["envelope"] == {"format": 1, "protection": "none", "bundleVersion": "7.1", "chunkSize": None}, d["envelope"]
assert d["format"] == 1 and d["size"] == os.path.getsize("rich.archive") and d["file"] == "rich.archive"
app = d["app"]
assert app["bundleVersion"] == "7.1" and app["interfaceIdiom"] == "desktop" and app["systemVersion"] == "6.1.0"
assert app["timestamp"] == {"$date": 700000000.25}
assert app["keys"] == {"lastTab": 2, "recent": ["Spork", "Bear"]}, app["keys"]
assert d["snapshot"] == {"size": 24, "ignored": False}
objs = d["objects"]
assert ["/".join(o["path"]) for o in objs] == ["Nav", "Nav/Items", "Nav/Items/table", "Nav/Items/source", "Nav/Detail", "Elsewhere/Orphan"]
assert [o["position"] for o in objs] == [0, 0, 0, 0, 1, 0]
assert [o["class"] for o in objs] == ["UINavigationController", "ItemsViewController", "UITableView", "ItemDataSource", "DetailViewController", "OrphanController"]
assert [o["kind"] for o in objs] == ["controller", "controller", "view", "object", "controller", "controller"]
assert [o["relation"] for o in objs] == ["none", "child", "view", "restorationChild", "child", "none"]
assert [o["depth"] for o in objs] == [0, 1, 2, 2, 1, 1]
assert [o["parent"] for o in objs] == [None, 0, 1, 1, 0, None]
assert [o["root"] for o in objs] == [True, False, False, False, False, False]
assert [o["index"] for o in objs] == list(range(6))
assert objs[0]["restorationClass"] == "HomepwnerScreens" and objs[0]["blueprint"] == "Main.Nav"
assert objs[1]["restorationClass"] is None and objs[1]["blueprint"] is None
assert objs[2]["viewKind"] == "table" and objs[1]["viewKind"] is None
s = objs[1]["state"]
assert list(s) == ["selectedRow", "ratio", "editing", "name", "thumb", "saved", "selection", "single", "tags", "sizes", "uuid", "detail", "source", "nothing", "item", "items"], list(s)
assert s["selectedRow"] == 3 and type(s["selectedRow"]) is int
assert s["ratio"] == 0.5 and s["editing"] is False and s["name"] == "caf\u00e9 \"quoted\"\n"
assert s["thumb"] == {"$data": "AAECAwQFBgcICQoLDA0ODxAREhM="} and s["saved"] == {"$date": 0.0}
assert s["selection"] == {"$indexPath": [0, 300]} and s["single"] == {"$indexPath": [7]}
assert s["tags"] == ["a", "b"] and s["sizes"] == {"w": 1.5, "h": 2}
assert s["uuid"] == {"$uuid": "00112233-4455-6677-8899-AABBCCDDEEFF"}
assert s["detail"] == {"$reference": ["Nav", "Detail"], "$record": 4}
assert s["source"] == {"$reference": ["Nav", "Items", "source"], "$record": 3}
assert s["nothing"] is None
assert s["item"] == {"$class": "BNRItem", "$id": 13, "itemName": "Rusty Bear", "valueInDollars": 42, "owner": None}
assert s["items"] == [{"$ref": 13}, {"$ref": 13}]
v = objs[2]["state"]
assert v["amber.view.kind"] == 2 and v["amber.view.contentOffset"] == [0.0, 120.0]
assert v["amber.view.selectedItems"] == ["item-7", {"$indexPath": [0, 2]}] and v["amber.view.editing"] is True
assert objs[4]["state"] == {"back": {"$reference": ["Nav", "Items"], "$record": 1}}
assert objs[5]["state"] == {}
' > msg 2>&1; then
    pass "inspect --json: one JSON document: paths, classes, kinds, relations, typed values, references by path"
else fail "inspect --json: unencrypted archive" "exit $rc $(cat err msg)"; fi

run inspect --json ignored.archive
if [[ $rc -eq 0 ]] && python3 -c '
import json
d = json.load(open("out"))
assert d["snapshot"] == {"size": None, "ignored": True}, d["snapshot"]
assert d["app"]["timestamp"] is None and d["app"]["keys"] == {}
' > msg 2>&1 && "$AMBER" inspect ignored.archive | grep -q '^snapshot: ignored'; then
    pass "inspect: a snapshot ignored at the next launch, metadata missing"
else fail "inspect: ignored snapshot" "exit $rc $(cat err msg)"; fi

run inspect --key-file private.key sealed.archive
if [[ $rc -eq 0 && ! -s err ]] && grep -q '^envelope: format 1, AES-256-GCM' out && grep -q '^  bundle version: "4.2"$' out \
    && grep -q '^objects: 8$' out && grep -q '^  /NavRoot/Items: ItemsViewController, controller, child$' out \
    && grep -q '^    selectedRow = 2$' out && grep -q '^      draftName = ""$' out \
    && grep -q '^    itemName = "Shiny Spork (edited)"$' out; then
    pass "inspect --key-file: the encrypted archive (C demo) decrypted and printed as a tree"
else fail "inspect --key-file: encrypted archive" "exit $rc $(cat err; head -20 out)"; fi

run inspect --json --key-file private.key sealed.archive
if [[ $rc -eq 0 && ! -s err ]] && python3 -c 'import json,sys; json.load(sys.stdin)' < out && python3 -c '
import json
d = json.load(open("out"))
assert d["envelope"]["protection"] == "aes-256-gcm" and d["envelope"]["bundleVersion"] == "4.2"
assert d["app"]["bundleVersion"] == "4.2" and d["app"]["keys"] == {"appVersion": "4.2"}
objs = d["objects"]
assert len(objs) == 8
by = {"/".join(o["path"]): o for o in objs}
assert by["NavRoot"]["class"] == "UINavigationController" and by["NavRoot"]["root"] is True
assert by["NavRoot"]["restorationClass"] == "HomepwnerScreens"
assert by["NavRoot/NewItemNav"]["relation"] == "presented"
assert by["NavRoot/Detail"]["state"] == {"itemKey": "7F3A-SPORK", "itemName": "Shiny Spork (edited)"}
assert by["Tabs/Right"]["class"] == "ItemsViewController" and by["Tabs/Right"]["state"] == {"selectedRow": 5}
assert all(o["kind"] == "controller" for o in objs)
' > msg 2>&1; then
    pass "inspect --json --key-file: the encrypted archive as JSON"
else fail "inspect --json --key-file" "exit $rc $(cat err msg)"; fi

run inspect hostile.archive
if [[ $rc -eq 0 && ! -s err ]] && grep -q '^  loop = <unreadable: the NSArray object [0-9]* contains itself>$' out \
    && grep -q '^  cycle = <Node #[0-9]*> {me: <Node #[0-9]*> (shown above)}$' out \
    && grep -q '^  chain = <unreadable: values nest deeper than the limit of 512>$' out \
    && grep -q '^  bad = -> record 99 (no such record)$' out && grep -q '^  after = 1$' out; then
    pass "inspect: hostile values (self-containing array, cycle, deep chain, dangling reference) print finitely"
else fail "inspect: hostile values" "exit $rc $(cat err; head -c 600 out)"; fi

run inspect --key-file private.key sealed2.archive
if [[ $rc -eq 0 && ! -s err ]] && grep -q '^envelope: format 2, AES-256-GCM, HKDF-SHA256 per-archive key, sealed in chunks of 1048576 bytes$' out \
    && grep -q '^  bundle version: "4.2"$' out && grep -q '^objects: 10$' out \
    && grep -q '^      amber.view.selectedItems = \["7F3A-SPORK", "9D55-LAMP"\]$' out; then
    pass "inspect --key-file: an archive in envelope format 2 (C demo) decrypted and printed"
else fail "inspect --key-file: format 2" "exit $rc $(cat err; head -20 out)"; fi
run inspect --json --key-file private.key sealed2.archive
if [[ $rc -eq 0 && ! -s err ]] && python3 -c '
import json
d = json.load(open("out"))
assert d["envelope"] == {"format": 2, "protection": "aes-256-gcm", "bundleVersion": "4.2", "chunkSize": 1048576}, d["envelope"]
assert len(d["objects"]) == 10
' > msg 2>&1; then
    pass "inspect --json --key-file: format 2, its chunk size"
else fail "inspect --json --key-file: format 2" "exit $rc $(cat err msg)"; fi
python3 - <<'PY'
data = bytearray(open("sealed2.archive", "rb").read())
open("cut2.archive", "wb").write(data[:-1])
data[len(data) // 2] ^= 0x10
open("tampered2.archive", "wb").write(data)
PY
check_reject "inspect: a tampered archive of format 2 does not authenticate" tampered2.archive "does not authenticate" inspect --key-file private.key tampered2.archive
check_reject "inspect: a truncated archive of format 2 does not authenticate" cut2.archive "does not authenticate" inspect --key-file private.key cut2.archive
check_reject "inspect: an encrypted archive without --key-file says so" sealed.archive "--key-file" inspect sealed.archive
check_reject "inspect --json: an encrypted archive without --key-file says so" sealed.archive "--key-file" inspect --json sealed.archive
check_reject "inspect: the wrong key does not authenticate" sealed.archive "does not authenticate" inspect --key-file wrong.key sealed.archive
check_reject "inspect: a tampered archive does not authenticate" tampered.archive "does not authenticate" inspect --key-file private.key tampered.archive
check_reject "inspect: a missing key file" sealed.archive "does not exist" inspect --key-file missing.key sealed.archive
check_reject "inspect: a key file others can read is refused" sealed.archive "group or others" inspect --key-file open.key sealed.archive
check_reject "inspect: a keyed archive in an envelope that is not a restoration archive" plain.archive "not a restoration archive" inspect plain.archive
check_reject "inspect: a bare keyed archive that is not a restoration archive" graph.plist "not a restoration archive" inspect graph.plist
check_reject "inspect: a text file is not a restoration archive" text.plist "not a restoration archive" inspect --json text.plist
check_reject "inspect: a damaged restoration archive, the engine's reason" bad-parent.archive "names record 5 as its parent" inspect bad-parent.archive
check_reject "inspect: a missing file" "$WORK/missing.archive" "No such file" inspect "$WORK/missing.archive"

# ---------------------------------------------------------------------------------------------
# Finding out why (issue 29): inspect --app finds the archive and its key as an engine opened with
# the default options does ($XDG_STATE_HOME/<app-id>/state.archive and archive.key); inspect
# --dot; amber report reads the report an engine keeps (last-restore.report, format 1).

state="$WORK/xdg-state"
appdir="$state/org.example.homepwner"
mkdir -p "$appdir" && chmod 700 "$state" "$appdir"
cp "$FIXTURES/homepwner.archive" "$appdir/state.archive"
cp "$FIXTURES/homepwner.key" "$appdir/archive.key" && chmod 600 "$appdir/archive.key"
XDG_STATE_HOME="$state" "$AMBER" inspect --app org.example.homepwner > out 2> err
rc=$?
"$AMBER" inspect --key-file private.key sealed.archive > expected-tree 2>/dev/null
if [[ $rc -eq 0 && ! -s err ]] && grep -qx "file: $appdir/state.archive ([0-9]* bytes)" out \
    && diff <(tail -n +2 out) <(tail -n +2 expected-tree) > msg; then
    pass "inspect --app: the archive and its key found in \$XDG_STATE_HOME/<app-id>, the same tree as with --key-file"
else fail "inspect --app" "exit $rc $(cat err msg; head -3 out)"; fi
XDG_STATE_HOME="$state" "$AMBER" inspect --json --app org.example.homepwner > out 2> err
if [[ $? -eq 0 ]] && python3 -c 'import json; d = json.load(open("out")); assert len(d["objects"]) == 8' > msg 2>&1; then
    pass "inspect --json --app"
else fail "inspect --json --app" "$(cat err msg)"; fi
home_state="$WORK/home/.local/state/org.example.homepwner"
mkdir -p "$home_state" && cp "$appdir/state.archive" "$appdir/archive.key" "$home_state/"
if env -u XDG_STATE_HOME HOME="$WORK/home" "$AMBER" inspect --app org.example.homepwner > out 2> err \
    && grep -qx "file: $home_state/state.archive ([0-9]* bytes)" out; then
    pass "inspect --app: without XDG_STATE_HOME, ~/.local/state/<app-id>"
else fail "inspect --app: ~/.local/state" "$(cat err; head -3 out)"; fi

check_app_reject() {  # NAME REASON ARGS...: with XDG_STATE_HOME=$state, one line naming REASON
    local name=$1 reason=$2
    shift 2
    XDG_STATE_HOME="$state" "$AMBER" "$@" > out 2> err
    rc=$?
    if [[ $rc -eq 1 && ! -s out && $(wc -l < err) -eq 1 ]] && grep -qF -- "$reason" err; then pass "$name"
    else fail "$name" "exit $rc: $(cat err; head -c 300 out)"; fi
}
check_app_reject "inspect --app: no state directory: the paths tried" \
    "'$state/org.example.nothing/state.archive' does not exist (the state directory '$state/org.example.nothing' does not exist" \
    inspect --app org.example.nothing
mkdir -p "$state/org.example.empty"
check_app_reject "inspect --app: no archive: its path, and that an archive is consumed at launch" \
    "'$state/org.example.empty/state.archive' does not exist; an archive is consumed at launch" inspect --app org.example.empty
mkdir -p "$state/org.example.nokey" && cp "$appdir/state.archive" "$state/org.example.nokey/"
check_app_reject "inspect --app: an encrypted archive without its key: the key file's path" \
    "the key file '$state/org.example.nokey/archive.key' does not exist" inspect --app org.example.nokey
check_app_reject "inspect --app: an application id that is not a file name" "is not a usable application id" inspect --app ../x
run inspect --app org.example.homepwner sealed.archive
if [[ $rc -ne 0 && $rc -ne 1 && -s err && ! -s out ]] && grep -q "not both" err; then pass "inspect: --app and a file: a usage error"
else fail "inspect: --app and a file" "exit $rc: $(cat err)"; fi
run inspect
if [[ $rc -ne 0 && $rc -ne 1 && -s err && ! -s out ]]; then pass "inspect: neither a file nor --app: a usage error"
else fail "inspect: neither a file nor --app" "exit $rc: $(cat err)"; fi

run inspect --dot --key-file private.key sealed2.archive
"$AMBER" inspect --json --key-file private.key sealed2.archive > tree.json 2>/dev/null
if [[ $rc -eq 0 && ! -s err ]] && python3 - > msg 2>&1 <<'PY'
import json, re
dot = open("out").read()
tree = json.load(open("tree.json"))
lines = dot.splitlines()
assert lines[0] == "digraph amber {" and lines[-1] == "}", (lines[0], lines[-1])
nodes = {}
for line in lines:
    m = re.fullmatch(r'  r(\d+) \[label="((?:[^"\\]|\\.)*)", shape=(box|note)(.*)\];', line)
    if m:
        nodes[int(m.group(1))] = (m.group(2).split("\\n"), m.group(3), m.group(4))
edges = [tuple(map(int, m.groups())) for m in (re.match(r"  r(\d+) -> r(\d+)", l) for l in lines) if m]
objects = tree["objects"]
assert sorted(nodes) == list(range(len(objects))), sorted(nodes)
for o in objects:
    label, shape, rest = nodes[o["index"]]
    assert label[0] == o["path"][-1] + (f'[{o["position"]}]' if o["position"] else ""), label
    kind = o["kind"] + (f' ({o["viewKind"]})' if o["viewKind"] else "")
    assert label[1] == f'{o["class"]} · {kind}', label
    n = len(o["state"])
    assert label[2] == f'{n} key{"" if n == 1 else "s"}', label
    assert (shape == "note") == (o["kind"] == "object")
    assert ("penwidth=2" in rest) == o["root"]
assert sorted(edges) == sorted((o["parent"], o["index"]) for o in objects if o["parent"] is not None), edges
assert "itemName" not in dot and "Spork" not in dot  # no state values
PY
then pass "inspect --dot: a DOT graph, one node per object (identifier, class, kind, keys), one edge per parent"
else fail "inspect --dot" "exit $rc $(cat err msg; head -5 out)"; fi
run inspect --dot --json rich.archive
if [[ $rc -ne 0 && $rc -ne 1 && -s err && ! -s out ]]; then pass "inspect: --dot and --json: a usage error"
else fail "inspect: --dot and --json" "exit $rc: $(cat err)"; fi
run inspect --dot rich.archive
if [[ $rc -eq 0 && $(head -1 out) == "digraph amber {" ]] && grep -q ' -> ' out; then pass "inspect --dot: an unencrypted archive"
else fail "inspect --dot: rich.archive" "exit $rc $(cat err)"; fi

# A report as an engine writes it (KeptRestorationReport, format 1): fields escaped %XX.
printf 'amber-restoration-report\t1\napp\torg.example.homepwner\nwritten\t1764186422\nresult\trestored\n' > restored.report
printf 'record\trestored\t\tcontroller\tNavController\t0\t\tNavRoot\t0\n' >> restored.report
printf 'record\tnot-found\t\tview\tUITableView\t2\tno step of the lookup found it\tNavRoot\t0\tItems%%09A\t1\n' >> restored.report
printf 'record\tdecode-error\tthe callback failed%%0A(code 7)\tcontroller\tDetail\t0\t\tNavRoot\t0\tDetail\t0\n' >> restored.report
printf 'note\tremoved 1 temporary file(s)\nend\n' >> restored.report
run report restored.report
if [[ $rc -eq 0 && ! -s err ]] && diff out - > msg <<'TXT'
report: restored.report
application: org.example.homepwner
written: 2025-11-26T19:47:02.000Z
restored 1 of 3 archived objects
  restored  /NavRoot  NavController (controller)
  not found  /NavRoot/Items\tA[1]  UITableView (view)  — no step of the lookup found it
    dropped model identifiers: 2
  decode error: the callback failed\n(code 7)  /NavRoot/Detail  Detail (controller)
  note: removed 1 temporary file(s)
TXT
then pass "report: the kept report as text, control characters escaped"
else fail "report: text" "exit $rc $(cat err msg)"; fi
run report --json restored.report
if [[ $rc -eq 0 && ! -s err ]] && python3 -c '
import json
d = json.load(open("out"))
assert d["app"] == "org.example.homepwner" and d["result"] == "restored" and d["freshLaunch"] is None and d["format"] == 1
r = d["records"]
assert [x["outcome"] for x in r] == ["restored", "not-found", "decode-error"]
assert r[1]["path"] == ["NavRoot", "Items\tA"] and r[1]["positions"] == [0, 1] and r[1]["droppedModelIdentifiers"] == 2
assert r[2]["message"] == "the callback failed\n(code 7)" and r[0]["note"] is None
assert d["notes"] == ["removed 1 temporary file(s)"]
' > msg 2>&1; then pass "report --json: one JSON document"
else fail "report --json" "exit $rc $(cat err msg)"; fi
printf 'amber-restoration-report\t1\napp\torg.example.homepwner\nwritten\t0\nresult\tfresh\nfresh\tkey-unavailable\tthe key file is locked\nend\n' > "$appdir/last-restore.report"
XDG_STATE_HOME="$state" "$AMBER" report --app org.example.homepwner > out 2> err
if [[ $? -eq 0 ]] && grep -qx "report: $appdir/last-restore.report" out && grep -qx "fresh launch: key unavailable: the key file is locked" out; then
    pass "report --app: the report found in the state directory; a fresh launch's reason"
else fail "report --app" "$(cat err out)"; fi
rm "$appdir/state.archive"
check_app_reject "inspect --app: the archive consumed, the kept report named" \
    "holds the last restoration's report (amber report)" inspect --app org.example.homepwner
check_app_reject "report --app: no report: its path and how to keep one" \
    "'$state/org.example.empty/last-restore.report' does not exist; the engine keeps one" report --app org.example.empty
printf 'amber-restoration-report\t2\nend\n' > future.report
check_reject "report: another format version is refused" future.report "this version of Amber reads format 1" report future.report
head -n 6 restored.report > cut.report
check_reject "report: a report cut short is refused" cut.report "not a whole restoration report" report cut.report
check_reject "report: a file that is not a report" text.plist "not a restoration report" report text.plist

run dump
if [[ $rc -ne 0 && $rc -ne 1 && -s err && ! -s out ]]; then
    pass "usage error: missing FILE (ArgumentParser's exit status $rc)"
else
    fail "usage error: missing FILE" "exit status $rc: $(cat err)"
fi
run dump --no-such-flag binary.plist
if [[ $rc -ne 0 && -s err ]]; then pass "usage error: unknown flag"; else fail "usage error: unknown flag" "exit status $rc"; fi

# The version is the header's (include/amber/common.h defines it once).
header_version=$(sed -n 's/^#define AMBER_VERSION_STRING "\(.*\)"$/\1/p' "$REPO/include/amber/common.h")
run --version
if [[ -n $header_version && $rc -eq 0 && $(cat out) == "amber $header_version" ]]; then pass "amber --version is the header's"; else fail "amber --version" "$(cat out err) (header: $header_version)"; fi
run version
if [[ $rc -eq 0 && $(cat out) == "amber $header_version" ]]; then pass "amber version"; else fail "amber version" "$(cat out err)"; fi

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
