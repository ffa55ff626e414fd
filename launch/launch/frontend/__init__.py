# SPDX-License-Identifier: Apache-2.0
"""The frontends' common part: Entity, Parser, expose_action, expose_substitution."""

from . import type_utils
from .entity import Entity
from .expose import expose_action
from .expose import expose_substitution
from .parse_substitution import parse_substitution
from .parser import Parser

__all__ = ['Entity', 'expose_action', 'expose_substitution', 'parse_substitution', 'Parser',
           'type_utils']
