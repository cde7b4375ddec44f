"""Examples that run from an installed package: ``python -m amber.examples.homepwner``."""
