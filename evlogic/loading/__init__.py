"""Loading and validation: strict YAML and JSONL, boards, games, rule sets.

Everything a user types passes through here first; what comes out is typed
and checked, or an :class:`evlogic.errors.InputError` naming the file and
the field.
"""
