"""PND Adam U robot-side simulator on plain Cyclone DDS (see simulator.py)."""
