"""The guard behind the fast loop (tests/support/slow_guard.py) must be able to fail."""

from __future__ import annotations

import os
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor

import pytest

from tests.support.slow_guard import StartsAProcess


def test_an_unmarked_test_cannot_start_a_process():
    with pytest.raises(StartsAProcess, match=r"mark it @pytest.mark.slow"):
        subprocess.run([sys.executable, "-c", "pass"], check=True)


def test_an_unmarked_test_cannot_fork_or_start_a_pool():
    with pytest.raises(StartsAProcess):
        os.fork()
    with pytest.raises(StartsAProcess), ProcessPoolExecutor(1) as pool:
        pool.submit(int, "1").result()


@pytest.mark.slow
def test_a_slow_test_may():
    done = subprocess.run([sys.executable, "-c", "print('ran')"], capture_output=True, text=True)
    assert done.stdout.strip() == "ran"
