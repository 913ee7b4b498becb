"""The build's one piece of code: the solver's optional compiled kernel (C through the CPython API).

Everything else is declared in pyproject.toml. ``optional=True``: where no C compiler (or no Python
headers) is found the kernel is left out, the install goes on, and ``piquet.ai.solver`` runs its
pure-Python search, with the same results.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("piquet.ai._kernel", sources=["piquet/ai/_kernel.c"], depends=["piquet/ai/_kernel_search.h"],
                  optional=True, extra_compile_args=["-O2"]),
    ],
)
