#!/bin/sh
# SPDX-License-Identifier: MIT
# Stands in for the Criterion suites when configure did not find Criterion.
echo "1..0"
echo "Bail out! Criterion not found at configure time: install libcriterion-dev (./bootstrap does) and re-run configure"
