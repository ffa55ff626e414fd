# SPDX-License-Identifier: Apache-2.0
"""AimRT-side MuJoCo simulator peer: the Adam U model behind AimRT's http channel."""
