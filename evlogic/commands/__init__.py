"""The evlogic commands, one module each."""
