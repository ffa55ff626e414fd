# SPDX-License-Identifier: Apache-2.0
"""The extension point of ``ros2 doctor`` verbs (entry point group ``ros2doctor.verb``)."""


class VerbExtension:
    """
    A ``ros2 doctor`` verb: ``NAME`` (the entry point's name), ``main`` and ``add_arguments``.

    ``main(args=...)`` returns the exit code (None for 0).
    """

    NAME = None
    EXTENSION_POINT_VERSION = '0.1'

    def add_arguments(self, parser, cli_name: str) -> None:
        """Add the verb's options to its argparse parser."""

    def main(self, *, args):
        """Run the verb."""
        raise NotImplementedError()
