"""setup.py - builds libetmtrace (static, with CMake) and the etmtrace
extension module against CPython's limited API 3.11 (wheel tag cp311-abi3).
Metadata lives in pyproject.toml."""
import glob
import importlib.util
import os
import subprocess
import sys

# One line naming the fix instead of "invalid command 'bdist_wheel'" when
# this interpreter (another python3 first on PATH) lacks the build tools.
for _mod, _deb in (("setuptools", "python3-setuptools"),
                   ("wheel", "python3-wheel")):
    _spec = importlib.util.find_spec(_mod)
    if ("bdist_wheel" in sys.argv or _mod == "setuptools") and \
            (_spec is None or _spec.origin is None):
        sys.exit(f"etmtrace: {sys.executable} has no module '{_mod}': "
                 f"apt-get install {_deb} (Debian), or build with "
                 f"scripts/python.sh, which picks a Python that has it "
                 f"(doc/python.md)")

from setuptools import Extension, setup  # noqa: E402
from setuptools.command.build_ext import build_ext  # noqa: E402

ROOT = os.path.dirname(os.path.abspath(__file__))


def pkg_libs(name):
    out = subprocess.run(["pkg-config", "--libs", name], check=True,
                         capture_output=True, text=True).stdout
    return [f[2:] for f in out.split() if f.startswith("-l")]


class CMakeBuildExt(build_ext):
    """Build the C library with the project's CMake, then the extension."""

    def run(self):
        bdir = os.path.abspath(os.path.join(self.build_temp, "cmake"))
        subprocess.run(["cmake", "-S", ROOT, "-B", bdir,
                        "-DCMAKE_BUILD_TYPE=Release",
                        "-DETM_PYTHON_MODULE=OFF"], check=True,
                       stdout=subprocess.DEVNULL)
        subprocess.run(["cmake", "--build", bdir, "--target",
                        "etmtrace_static", "-j", str(os.cpu_count() or 2)],
                       check=True)
        for ext in self.extensions:
            ext.extra_objects = [os.path.join(bdir, "libetmtrace.a")]
        super().run()


setup(
    ext_modules=[Extension(
        "etmtrace._etmtrace",
        sources=sorted(glob.glob("python/src/*.c")),
        include_dirs=["include"],
        define_macros=[("Py_LIMITED_API", "0x030b0000"),
                       ("_POSIX_C_SOURCE", "200809L")],
        extra_compile_args=["-std=c11", "-Wall", "-Wextra"],
        libraries=pkg_libs("libelf") + ["pthread"],
        py_limited_api=True,
    )],
    cmdclass={"build_ext": CMakeBuildExt},
    options={"bdist_wheel": {"py_limited_api": "cp311"},
             "build": {"build_base": "build-python"}},
)
