"""Only what pyproject.toml cannot say: the top-level `data/` folder is shipped as the package
`parley_data` (package-dir needs an explicit package list, which `find` cannot add to)."""

from setuptools import find_namespace_packages, setup

setup(
    packages=[*find_namespace_packages(include=["bot*", "cogs*", "renderer*"]), "parley_data"],
    package_dir={"parley_data": "data"},
)
