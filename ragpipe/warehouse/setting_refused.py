"""The one error of a setting read from the environment that is not what it must be."""


class SettingRefused(ValueError):
    """An environment setting that is not what it must be, said in a line."""
