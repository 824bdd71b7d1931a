"""The package list, found rather than written out: every ``sim`` and ``policies`` package on disk (a new game's
packages included, with no line to add anywhere) and ``sim.configs``, the top-level ``configs/`` folder that ships
as package data (``[tool.setuptools.package-dir]`` in pyproject.toml). Everything else lives in pyproject.toml."""

from setuptools import find_packages, setup

setup(packages=[*find_packages(include=["sim", "sim.*", "policies", "policies.*"]), "sim.configs"])
