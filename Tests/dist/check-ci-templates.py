#!/usr/bin/env python3
"""Checks the GitHub Action (action.yml) and the GitLab CI template (ci/maskclean.gitlab-ci.yml) by
running their steps as a runner would (make test-dist runs it):

    check-ci-templates.py dist/SHA256SUMS

The package index is the wheel `make dist` built (PIP_NO_INDEX, PIP_FIND_LINKS=dist), the Swift
toolchain is off the PATH, and each runs on a passing export and on the demo, which fails its
card threshold by design.

- The action: its inputs are spec, input, version, args and junit; it is a composite action whose
  steps are run one after the other under `bash --noprofile --norc -eo pipefail`, with
  `${{ inputs.* }}` and `${{ github.action_path }}` put in as the runner puts them, GITHUB_ACTIONS,
  GITHUB_STEP_SUMMARY, GITHUB_PATH and RUNNER_TEMP set, and what a step appends to GITHUB_PATH
  put first on the next step's PATH. The passing export passes (0) with no annotation; the demo
  fails the step (1), prints the demo's annotations (Fixtures/cases/demo-github-annotations) and
  writes its step summary (Fixtures/cases/demo-markdown), the JUnit report to `junit`, and takes
  `args` split as a shell splits them.
- The GitLab template: a hidden job `.maskclean-check` whose script lines run in one shell (as
  GitLab's runner does, stopping at the first that fails), with its variables, under a Python
  environment of its own standing in for its python image; the JUnit report is published
  whatever the outcome (artifacts: when: always, reports: junit).
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ElementTree

import yaml

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def fail(message: str) -> None:
    sys.exit(f"check-ci-templates: {message}")


BARE_PATH = ""


def bare_path() -> str:
    """The usual system directories without the Swift toolchain's: a system directory that holds
    it (the Swift images put swift in /usr/bin) is stood in for by one of links to its other
    commands, so that bash, python3 and sed are still there."""
    return BARE_PATH


def make_bare_path(work: str) -> str:
    swift = shutil.which("swift")
    toolchain = os.path.dirname(os.path.realpath(swift)) if swift else None
    kept = []
    for directory in ["/usr/local/bin", "/usr/bin", "/bin"]:
        if not os.path.isdir(directory):
            continue
        if os.path.realpath(directory) == toolchain or os.path.exists(os.path.join(directory, "swift")):
            shadow = os.path.join(work, "bin-without-the-toolchain" + directory.replace("/", "-"))
            os.makedirs(shadow, exist_ok=True)
            for command in os.listdir(directory):
                if "swift" in command or command.startswith("sourcekit"):
                    continue
                link = os.path.join(shadow, command)
                if not os.path.lexists(link):
                    os.symlink(os.path.join(directory, command), link)
            directory = shadow
        kept.append(directory)
    return ":".join(kept)


def export(work: str, name: str, source: str) -> str:
    """A workspace holding the spec and export of fixture `source`."""
    workspace = os.path.join(work, name)
    os.makedirs(workspace)
    for file in ["spec.json", "customers.csv"]:
        shutil.copy(os.path.join(REPO, source, file), workspace)
    return workspace


def substitute(text: str, inputs: dict, action_path: str) -> str:
    """Puts in `${{ inputs.NAME }}` and `${{ github.action_path }}`, as the runner does."""

    def value(match: re.Match) -> str:
        expression = match.group(1).strip()
        if expression == "github.action_path":
            return action_path
        if expression.startswith("inputs.") and expression[len("inputs.") :] in inputs:
            return inputs[expression[len("inputs.") :]]
        fail(f"action.yml uses ${{{{ {expression} }}}}, which this check does not know how to put in")

    return re.sub(r"\$\{\{(.*?)\}\}", value, str(text))


def run_action(action: dict, work: str, workspace: str, given: dict, dist: str) -> dict:
    """Runs the action's steps; returns the exit status of the last step run, and what it wrote."""
    inputs = {name: str(spec.get("default", "")) for name, spec in action["inputs"].items()}
    for name in given:
        if name not in inputs:
            fail(f"action.yml has no input {name}")
    inputs.update(given)
    for name, spec in action["inputs"].items():
        if spec.get("required") and not inputs[name]:
            fail(f"the required input {name} is not given")
    runner = os.path.join(workspace, ".runner")
    os.makedirs(os.path.join(runner, "temp"))
    files = {kind: os.path.join(runner, kind) for kind in ["summary", "path", "output", "env"]}
    for file in files.values():
        open(file, "w").close()
    base = {
        "HOME": runner,
        "LC_ALL": "C.UTF-8",
        "CI": "true",
        "GITHUB_ACTIONS": "true",
        "GITHUB_WORKSPACE": workspace,
        "GITHUB_ACTION_PATH": REPO,
        "GITHUB_STEP_SUMMARY": files["summary"],
        "GITHUB_PATH": files["path"],
        "GITHUB_OUTPUT": files["output"],
        "GITHUB_ENV": files["env"],
        "RUNNER_TEMP": os.path.join(runner, "temp"),
        # The wheel in place of the index: no network.
        "PIP_NO_INDEX": "1",
        "PIP_FIND_LINKS": dist,
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    result = {"status": 0, "stdout": ""}
    for number, step in enumerate(action["runs"]["steps"]):
        if step.get("shell") != "bash" or "run" not in step:
            fail(f"step {number + 1} of action.yml is not a bash run step")
        added = [line for line in open(files["path"]).read().splitlines() if line]
        environment = dict(base)
        environment["PATH"] = ":".join(list(reversed(added)) + [bare_path()])
        for key, raw in (step.get("env") or {}).items():
            environment[key] = substitute(raw, inputs, REPO)
        script = os.path.join(runner, f"step{number}.sh")
        with open(script, "w") as file:
            file.write(substitute(step["run"], inputs, REPO))
        completed = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", script],
            cwd=workspace,
            env=environment,
            capture_output=True,
            text=True,
        )
        result = {"status": completed.returncode, "stdout": completed.stdout, "stderr": completed.stderr}
        if completed.returncode != 0:
            break
    result["summary"] = open(files["summary"]).read()
    result["steps"] = number + 1
    return result


def check_action(work: str, dist: str, version: str) -> None:
    with open(os.path.join(REPO, "action.yml")) as file:
        action = yaml.safe_load(file)
    if set(action["inputs"]) != {"spec", "input", "version", "args", "junit"}:
        fail(f"action.yml's inputs are {sorted(action['inputs'])}, not spec, input, version, args, junit")
    if action["runs"]["using"] != "composite":
        fail("action.yml is not a composite action")
    steps = len(action["runs"]["steps"])

    # A passing export, the action's own version.
    workspace = export(work, "action-passing", "Fixtures/cases/check-min-complete-passes")
    passing = run_action(action, work, workspace, {"spec": "spec.json", "input": "customers.csv"}, dist)
    if passing["status"] != 0 or passing["steps"] != steps:
        fail(f"the action failed on a passing export (step {passing['steps']}, {passing['status']}): {passing.get('stderr')}")
    if "::error" in passing["stdout"] or "::warning" in passing["stdout"]:
        fail(f"the action annotated a passing export: {passing['stdout']}")
    if "## maskclean: customers.csv: passed" not in passing["summary"]:
        fail(f"the passing export's step summary is not a pass: {passing['summary'][:500]}")
    if not passing["stderr"].rstrip().endswith("5 rows: passed"):
        fail(f"the passing check's summary is not on stderr: {passing['stderr']}")

    # The demo: fails, annotated, summarised, JUnit written, args split as a shell would.
    workspace = export(work, "action-failing", "Fixtures/demo")
    failing = run_action(
        action,
        work,
        workspace,
        {
            "spec": "spec.json",
            "input": "customers.csv",
            "version": "latest",
            "junit": "maskclean.junit.xml",
            "args": "--quiet --report 'the report.json'",
        },
        dist,
    )
    if failing["status"] != 1 or failing["steps"] != steps:
        fail(f"the action on the demo ended at step {failing['steps']} with {failing['status']}, not the check's 1: {failing.get('stderr')}")
    with open(os.path.join(REPO, "Fixtures/cases/demo-github-annotations/expected.annotations.txt")) as file:
        if failing["stdout"] != file.read():
            fail(f"the demo's annotations differ from Fixtures/cases/demo-github-annotations: {failing['stdout']}")
    with open(os.path.join(REPO, "Fixtures/cases/demo-markdown/expected.summary.md")) as file:
        if failing["summary"] != file.read():
            fail("the demo's step summary differs from Fixtures/cases/demo-markdown/expected.summary.md")
    if failing["stderr"]:
        fail(f"--quiet (from args) was not passed: stderr has {failing['stderr']}")
    junit = ElementTree.parse(os.path.join(workspace, "maskclean.junit.xml")).getroot()
    if not list(junit.iter("failure")):
        fail("the demo's JUnit report has no failure")
    if not os.path.isfile(os.path.join(workspace, "the report.json")):
        fail("args' quoted '--report the report.json' was not passed as one argument")
    print(f"check-ci-templates: action.yml: {steps} steps; a passing export passes, the demo fails the step with its annotations, summary and JUnit report")


def check_gitlab(work: str, dist: str) -> None:
    with open(os.path.join(REPO, "ci/maskclean.gitlab-ci.yml")) as file:
        template = yaml.safe_load(file)
    job = template.get(".maskclean-check")
    if not job:
        fail("ci/maskclean.gitlab-ci.yml has no .maskclean-check job")
    artifacts = job.get("artifacts", {})
    if artifacts.get("when") != "always" or artifacts.get("reports", {}).get("junit") != "$MASKCLEAN_JUNIT":
        fail(f"the GitLab job does not publish the JUnit report whatever the outcome: {artifacts}")
    # The job's python image, stood in for by a virtual environment first on the PATH.
    environment_dir = os.path.join(work, "gitlab-python")
    subprocess.run([sys.executable, "-m", "venv", environment_dir], check=True)
    for name, source, expected in [
        ("gitlab-passing", "Fixtures/cases/check-min-complete-passes", 0),
        ("gitlab-failing", "Fixtures/demo", 1),
    ]:
        workspace = export(work, name, source)
        environment = {
            "HOME": workspace,
            "LC_ALL": "C.UTF-8",
            "CI": "true",
            "GITLAB_CI": "true",
            "PATH": os.path.join(environment_dir, "bin") + ":" + bare_path(),
            "PIP_NO_INDEX": "1",
            "PIP_FIND_LINKS": dist,
            "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        }
        environment.update({key: str(value) for key, value in job["variables"].items()})
        environment.update({"MASKCLEAN_SPEC": "spec.json", "MASKCLEAN_INPUT": "customers.csv"})
        # GitLab runs the script's lines in one shell and stops at the first that fails.
        script = "set -e\n" + "\n".join(job["script"]) + "\n"
        completed = subprocess.run(
            ["bash", "-c", script], cwd=workspace, env=environment, capture_output=True, text=True
        )
        if completed.returncode != expected:
            fail(f"the GitLab job on {name} exited {completed.returncode}, not {expected}: {completed.stderr}")
        report = os.path.join(workspace, environment["MASKCLEAN_JUNIT"])
        failures = list(ElementTree.parse(report).getroot().iter("failure"))
        if bool(failures) != bool(expected):
            fail(f"the GitLab job's JUnit report on {name} has {len(failures)} failures")
    print("check-ci-templates: ci/maskclean.gitlab-ci.yml: a passing export passes, the demo fails the job; the JUnit report is written and published either way")


def main() -> None:
    if len(sys.argv) != 2:
        fail("usage: check-ci-templates.py dist/SHA256SUMS")
    dist = os.path.dirname(os.path.abspath(sys.argv[1]))
    version = re.search(
        r'public let maskcleanVersion = "([^"]*)"',
        open(os.path.join(REPO, "Sources/MaskClean/Reports/ReportOrigin.swift")).read(),
    ).group(1)
    with tempfile.TemporaryDirectory() as work:
        global BARE_PATH
        BARE_PATH = make_bare_path(work)
        check_action(work, dist, version)
        check_gitlab(work, dist)


if __name__ == "__main__":
    main()
