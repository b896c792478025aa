"""The machine record of a bench report: CPU, cores, memory, OS, Python, llama.cpp build.

Device numbers mean nothing without the device, so every report carries this.
The host name is deliberately left out: reports are meant to be shared.
"""

from __future__ import annotations

import platform
import re
import sys
from importlib import metadata
from pathlib import Path

from pydantic import BaseModel, Field

CACHE_ROOT = Path("/sys/devices/system/cpu/cpu0/cache")
VERSIONED_PACKAGES = ("llama_cpp_python", "numpy", "gguf", "torch", "transformers")


class MachineInfo(BaseModel):
    """What ran the bench. ``llama_cpp_flags`` is llama.cpp's own view of its build
    (``llama_print_system_info``): SIMD paths compiled in, OpenMP, repacking."""

    cpu_model: str
    physical_cores: int | None
    logical_cores: int | None
    ram_gb: float
    llc_bytes: int | None = None
    cpu_freq_mhz: float | None = None
    os: str
    python: str
    packages: dict[str, str] = Field(default_factory=dict)
    llama_cpp_system_info: str = ""
    llama_cpp_flags: dict[str, str] = Field(default_factory=dict)
    load_avg_start: list[float] = Field(default_factory=list)
    load_avg_end: list[float] = Field(default_factory=list)


def cpu_model_name() -> str:
    """The CPU's marketing name (``/proc/cpuinfo`` on Linux, sysctl on macOS, else platform)."""
    cpuinfo = Path("/proc/cpuinfo")
    if cpuinfo.is_file():
        match = re.search(
            r"^model name\s*:\s*(.+)$", cpuinfo.read_text(errors="replace"), re.MULTILINE
        )
        if match:
            return match.group(1).strip()
    if sys.platform == "darwin":
        import subprocess

        out = subprocess.run(
            ["sysctl", "-n", "machdep.cpu.brand_string"],
            capture_output=True,
            text=True,
            check=False,
        )
        if out.returncode == 0 and out.stdout.strip():
            return out.stdout.strip()
    return platform.processor() or platform.machine() or "unknown"


def parse_cache_size(text: str) -> int:
    """``32768K`` / ``1M`` / ``512`` (sysfs cache sizes) in bytes."""
    match = re.fullmatch(r"\s*(\d+)\s*([KMG]?)\s*", text)
    if not match:
        raise ValueError(f"not a cache size: {text!r}")
    scale = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}[match.group(2)]
    return int(match.group(1)) * scale


def last_level_cache_bytes(root: Path = CACHE_ROOT) -> int | None:
    """Size of the highest-level cache of CPU 0 from sysfs (None where sysfs has no answer)."""
    best: tuple[int, int] | None = None
    for index in sorted(root.glob("index*")):
        try:
            level = int((index / "level").read_text())
            size = parse_cache_size((index / "size").read_text())
        except (OSError, ValueError):
            continue
        if best is None or level > best[0]:
            best = (level, size)
    return best[1] if best else None


def parse_system_info(text: str) -> dict[str, str]:
    """``CPU : AVX2 = 1 | OPENMP = 1 |`` -> ``{"AVX2": "1", "OPENMP": "1"}``."""
    return {key: value for key, value in re.findall(r"([A-Za-z0-9_]+)\s*=\s*([^|\s]+)", text)}


def package_versions(names: tuple[str, ...] = VERSIONED_PACKAGES) -> dict[str, str]:
    """Installed versions of the packages that decide the numbers (missing ones are left out)."""
    versions = {}
    for name in names:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return versions


def llama_system_info() -> str:
    """llama.cpp's build/CPU feature line, or '' when llama-cpp-python is missing."""
    try:
        import llama_cpp
    except ImportError:
        return ""
    return llama_cpp.llama_print_system_info().decode("utf-8", errors="replace").strip()


def load_average() -> list[float]:
    """1/5/15-minute load average: a loaded CPU explains noisy numbers."""
    import psutil

    return [round(x, 2) for x in psutil.getloadavg()]


def collect_machine() -> MachineInfo:
    """Record this machine."""
    import psutil

    freq = psutil.cpu_freq()
    info = llama_system_info()
    return MachineInfo(
        cpu_model=cpu_model_name(),
        physical_cores=psutil.cpu_count(logical=False),
        logical_cores=psutil.cpu_count(logical=True),
        ram_gb=round(psutil.virtual_memory().total / 1e9, 2),
        llc_bytes=last_level_cache_bytes(),
        cpu_freq_mhz=round(freq.current, 1) if freq and freq.current else None,
        os=platform.platform(),
        python=platform.python_version(),
        packages=package_versions(),
        llama_cpp_system_info=info,
        llama_cpp_flags=parse_system_info(info),
        load_avg_start=load_average(),
    )
