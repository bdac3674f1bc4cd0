pytest_plugins = ["cli.pytest_kit"]
