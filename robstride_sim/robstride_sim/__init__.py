"""Simulated RobStride hardware interface (robstride_hardware_interface look-alike)."""
