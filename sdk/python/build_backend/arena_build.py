"""A PEP 517 build backend for this one package, written with the standard library only.

Why not setuptools or flit: `pip install ./sdk/python` runs the backend in an isolated environment and
first installs what `[build-system] requires` names, from an index. Machines without one (air-gapped
lab machines, CI behind a proxy) could then not install the SDK at all. This backend requires nothing,
so pip installs the SDK with no network and no `--no-build-isolation`.

It builds a pure-Python wheel (py3-none-any) of the `puzzle_arena` folder, an sdist, and an editable
wheel (a .pth file naming this folder) for `pip install -e`.
"""
import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "puzzle_arena"


def _read_project():
    """The [project] table of pyproject.toml: tomllib where Python has it (3.11+), else the small subset used here."""
    with open(os.path.join(HERE, "pyproject.toml"), "rb") as f:
        raw = f.read()
    try:
        import tomllib
    except ImportError:
        return _read_toml_subset(raw.decode("utf-8"))
    return tomllib.loads(raw.decode("utf-8"))["project"]


def _read_toml_subset(text):
    """Reads `key = "string"` and `key = ["a", "b"]` lines of [project] and its sub-tables (enough for this file)."""
    project, table = {}, None
    for line in text.splitlines():
        line = line.strip()
        header = re.match(r"^\[([^\]]+)\]$", line)
        if header:
            table = header.group(1)
            continue
        m = re.match(r'^([A-Za-z0-9_-]+)\s*=\s*(.+)$', line)
        if not m or table is None or not (table == "project" or table.startswith("project.")):
            continue
        key, value = m.group(1), m.group(2).strip()
        parsed = re.findall(r'"([^"]*)"', value) if value.startswith("[") else value.strip('"')
        target = project if table == "project" else project.setdefault(table.split(".", 1)[1], {})
        target[key] = parsed
    return project


def _metadata(project):
    lines = [
        "Metadata-Version: 2.1",
        "Name: " + project["name"],
        "Version: " + project["version"],
        "Summary: " + project.get("description", ""),
    ]
    if "requires-python" in project:
        lines.append("Requires-Python: " + project["requires-python"])
    for dep in project.get("dependencies", []):
        lines.append("Requires-Dist: " + dep)
    for extra, deps in project.get("optional-dependencies", {}).items():
        lines.append("Provides-Extra: " + extra)
        for dep in deps:
            lines.append('Requires-Dist: %s; extra == "%s"' % (dep, extra))
    readme = os.path.join(HERE, "README.md")
    body = ""
    if os.path.exists(readme):
        lines.append("Description-Content-Type: text/markdown")
        with open(readme, encoding="utf-8") as f:
            body = "\n" + f.read()
    return ("\n".join(lines) + "\n" + body).encode("utf-8")


def _dist_name(project):
    return re.sub(r"[-_.]+", "_", project["name"]).lower() + "-" + project["version"]


def _package_files():
    """(path in the archive, absolute path) of every file of the package, sorted so builds are reproducible."""
    out = []
    for root, dirs, files in os.walk(os.path.join(HERE, PACKAGE)):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith((".py", ".typed")):
                full = os.path.join(root, name)
                out.append((os.path.relpath(full, HERE).replace(os.sep, "/"), full))
    return out


def _write_wheel(wheel_directory, contents, tag_suffix=""):
    """Writes a wheel of `contents` ((archive path, bytes) pairs) plus its dist-info; returns its file name."""
    project = _read_project()
    dist = _dist_name(project)
    info = dist + ".dist-info"
    wheel = "Wheel-Version: 1.0\nGenerator: arena_build\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
    entries = list(contents) + [
        (info + "/METADATA", _metadata(project)),
        (info + "/WHEEL", wheel.encode("ascii")),
    ]
    record = []
    for path, data in entries:
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
        record.append("%s,sha256=%s,%d" % (path, digest, len(data)))
    record.append(info + "/RECORD,,")
    entries.append((info + "/RECORD", ("\n".join(record) + "\n").encode("utf-8")))
    name = dist + tag_suffix + "-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w", zipfile.ZIP_DEFLATED) as z:
        for path, data in entries:
            z.writestr(zipfile.ZipInfo(path, date_time=(2020, 1, 1, 0, 0, 0)), data)
    return name


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    files = []
    for path, full in _package_files():
        with open(full, "rb") as f:
            files.append((path, f.read()))
    return _write_wheel(wheel_directory, files)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    # The installed package is this folder itself: a .pth line puts it on sys.path.
    return _write_wheel(wheel_directory, [("puzzle_arena_editable.pth", (HERE + "\n").encode("utf-8"))])


def build_sdist(sdist_directory, config_settings=None):
    project = _read_project()
    dist = _dist_name(project)
    name = dist + ".tar.gz"
    extra = ["pyproject.toml", "README.md", "build_backend/arena_build.py"]
    files = [(p, os.path.join(HERE, p)) for p in extra if os.path.exists(os.path.join(HERE, p))] + _package_files()
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz", format=tarfile.PAX_FORMAT) as tar:
        pkg_info = _metadata(project)
        member = tarfile.TarInfo(dist + "/PKG-INFO")
        member.size = len(pkg_info)
        tar.addfile(member, io.BytesIO(pkg_info))
        for path, full in files:
            tar.add(full, arcname=dist + "/" + path, recursive=False)
    return name
