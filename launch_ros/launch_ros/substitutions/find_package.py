# SPDX-License-Identifier: Apache-2.0
"""FindPackagePrefix, FindPackageShare: where a package is installed."""

from typing import Any, Dict, List, Sequence, Text, Tuple, Type

from ament_index_python.packages import get_package_prefix, get_package_share_directory
from ament_index_python.packages import PackageNotFoundError
from launch.frontend import expose_substitution
from launch.some_substitutions_type import SomeSubstitutionsType
from launch.substitution import Substitution
from launch.substitutions import SubstitutionFailure
from launch.utilities import normalize_to_list_of_substitutions, perform_substitutions


class FindPackage(Substitution):
    """Base of the package look-ups through the ament index."""

    def __init__(self, package: SomeSubstitutionsType) -> None:
        """Create the substitution."""
        super().__init__()
        self.__package = normalize_to_list_of_substitutions(package)

    @classmethod
    def parse(cls, data: Sequence[SomeSubstitutionsType]
              ) -> Tuple[Type[Substitution], Dict[str, Any]]:
        """Parse ``$(find-pkg-... <package>)``."""
        if len(data) != 1:
            raise TypeError(f'{cls.__name__} takes 1 argument, got {len(data)}')
        return cls, {'package': data[0]}

    @property
    def package(self) -> List[Substitution]:
        """Getter for package."""
        return self.__package

    def find(self, package_name: Text) -> Text:
        """Return the path for ``package_name``."""
        raise NotImplementedError

    def perform(self, context: Any) -> Text:
        """Return the path; SubstitutionFailure naming the package if it is not installed."""
        package = perform_substitutions(context, self.__package)
        try:
            return self.find(package)
        except PackageNotFoundError:
            raise SubstitutionFailure(
                f"package '{package}' not found (is it built and its install sourced?)"
            ) from None

    def describe(self) -> Text:
        """Return a description of this substitution as a string."""
        return '{}(pkg={})'.format(type(self).__name__,
                                   ' + '.join(s.describe() for s in self.__package))


@expose_substitution('find-pkg-prefix')
class FindPackagePrefix(FindPackage):
    """Substitutes the install prefix of a package."""

    def find(self, package_name: Text) -> Text:
        """Return the prefix."""
        return get_package_prefix(package_name)


@expose_substitution('find-pkg-share')
class FindPackageShare(FindPackage):
    """Substitutes the share directory of a package."""

    def find(self, package_name: Text) -> Text:
        """Return the share directory."""
        return get_package_share_directory(package_name)
