# SPDX-License-Identifier: Apache-2.0
"""
The launch tests here run their nodes on a ROS_DOMAIN_ID of their own.

At import (launch test items take no fixtures): this process and every process it starts
get a domain no other test process holds, discovery on this host, logs in a temporary folder.
"""

import os
import tempfile

import workspace_testing as wt

DOMAIN = wt.isolate()
os.environ['ROS_LOG_DIR'] = tempfile.mkdtemp(prefix='launch_testing_ros_log_')
