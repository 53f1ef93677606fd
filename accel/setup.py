"""The compiled kernels, one C extension a game (setuptools needs them declared here)."""

from setuptools import Extension, setup

setup(ext_modules=[
    Extension("cardtool_accel._symbiosis", ["cardtool_accel/_symbiosis.c"], extra_compile_args=["-O2"]),
    Extension("cardtool_accel._ecologies", ["cardtool_accel/_ecologies.c"], extra_compile_args=["-O2"]),
    Extension("cardtool_accel._ecoengine", ["cardtool_accel/_ecoengine.c"], extra_compile_args=["-O2"]),
    # Python's doubles exactly: no multiply-add fused into one rounding
    Extension("cardtool_accel._ecogreedy", ["cardtool_accel/_ecogreedy.c"], extra_compile_args=["-O2", "-ffp-contract=off"]),
])
