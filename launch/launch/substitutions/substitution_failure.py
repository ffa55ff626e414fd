# SPDX-License-Identifier: Apache-2.0
"""SubstitutionFailure: a substitution that cannot produce its text."""


class SubstitutionFailure(RuntimeError):
    """Raised when a substitution fails (a missing configuration, variable, file ...)."""
