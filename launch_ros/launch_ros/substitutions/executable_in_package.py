# SPDX-License-Identifier: Apache-2.0
"""ExecutableInPackage: the path of a package's executable (``lib/<package>/<name>``)."""

import os
from typing import Any, Dict, List, Sequence, Text, Tuple, Type

from launch.frontend import expose_substitution
from launch.some_substitutions_type import SomeSubstitutionsType
from launch.substitution import Substitution
from launch.substitutions import SubstitutionFailure
from launch.utilities import normalize_to_list_of_substitutions, perform_substitutions

from .find_package import FindPackagePrefix


@expose_substitution('exec-in-pkg')
class ExecutableInPackage(FindPackagePrefix):
    """Substitutes ``<prefix>/lib/<package>/<executable>`` (what ``ros2 run`` runs)."""

    def __init__(self, executable: SomeSubstitutionsType,
                 package: SomeSubstitutionsType) -> None:
        """Create the substitution."""
        super().__init__(package)
        self.__executable = normalize_to_list_of_substitutions(executable)

    @classmethod
    def parse(cls, data: Sequence[SomeSubstitutionsType]
              ) -> Tuple[Type[Substitution], Dict[str, Any]]:
        """Parse ``$(exec-in-pkg <executable> <package>)``."""
        if len(data) != 2:
            raise TypeError(f'{cls.__name__} takes 2 arguments, got {len(data)}')
        return cls, {'executable': data[0], 'package': data[1]}

    @property
    def executable(self) -> List[Substitution]:
        """Getter for executable."""
        return self.__executable

    def describe(self) -> Text:
        """Return a description of this substitution as a string."""
        return 'ExecInPkg(pkg={}, exec={})'.format(
            ' + '.join(s.describe() for s in self.package),
            ' + '.join(s.describe() for s in self.__executable))

    def perform(self, context: Any) -> Text:
        """Return the path; SubstitutionFailure if the package or executable is missing."""
        executable = perform_substitutions(context, self.__executable)
        package = perform_substitutions(context, self.package)
        prefix = super().perform(context)
        libexec = os.path.join(prefix, 'lib', package)
        if not os.path.isdir(libexec):
            raise SubstitutionFailure(f"package '{package}' found at '{prefix}', but libexec "
                                      f"directory '{libexec}' does not exist")
        path = os.path.join(libexec, executable)
        if not os.path.isfile(path) or not os.access(path, os.X_OK):
            raise SubstitutionFailure(f"executable '{executable}' not found on the libexec "
                                      f"directory '{libexec}'")
        return path
