"""Step-time report: phase nesting, remainder, comparison, CLI, plot and the make helper."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path
from types import ModuleType

import pytest

from tools.timing import parse as timing_parse
from tools.timing import phases as timing_phases
from tools.timing import report as timing_report

ROOT = Path(__file__).resolve().parents[1]
TOOLS = ROOT / "tools"
FIXTURES = Path(__file__).resolve().parent / "fixtures" / "timing"
SGLANG = FIXTURES / "sglang_step3.console.txt"
SGLANG_JSONL = FIXTURES / "sglang_step3.jsonl"
VLLM = FIXTURES / "vllm_step3.console.txt"


@pytest.fixture(scope="module")
def tr() -> ModuleType:
    return timing_report


@pytest.fixture(scope="module")
def ph() -> ModuleType:
    return timing_phases


def _summary(tr, path: Path, name: str, steps: str | None = None):
    return tr.summarize(name, timing_parse.load_run(path), tr.StepRange.parse(steps))


def _write_log(path: Path, steps: dict[int, dict[str, float]]) -> Path:
    lines = [" - ".join([f"step:{s}", *(f"{k}:{v}" for k, v in m.items())]) for s, m in steps.items()]
    path.write_text("".join(f"(TaskRunner pid=7) {ln}\n" for ln in lines))
    return path


def _cli(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tools.timing", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_article_pair_speedups_and_remainder(tr):
    vllm = _summary(tr, VLLM, "vllm")
    sgl = _summary(tr, SGLANG, "sglang")
    # generate_sequences and reshard are inside gen: shown, never summed with it.
    assert set(sgl.phases) == {"gen", "reward", "old_log_prob", "ref", "adv", "update_actor"}
    assert set(sgl.nested["gen"]) == {"generate_sequences", "reshard", "rest"}
    top_sum = sum(st.mean for st in sgl.phases.values())
    assert top_sum == pytest.approx(382.913 + 1.198 + 4.186 + 3.621 + 0.002 + 16.263)
    assert sgl.remainder.mean == pytest.approx(408.190 - top_sum)
    assert sgl.remainder.mean == pytest.approx(0.007, abs=1e-9)
    assert sgl.nested["gen"]["rest"].mean == pytest.approx(382.913 - 380.170 - 2.311)
    assert vllm.remainder.mean == pytest.approx(878.89 - (849.20 + 1.18 + 4.57 + 4.62 + 19.31))

    rows = {r.phase: r for r in tr.compare([vllm, sgl])}
    assert round(rows["step"].speedup[1], 2) == 2.15
    assert round(rows["gen"].speedup[1], 2) == 2.22
    assert rows["gen/reshard"].seconds == [1.04, 2.311]
    assert rows["adv"].seconds == [None, 0.002] and rows["adv"].speedup[1] is None

    md = tr.render_markdown([vllm, sgl], tr.StepRange())
    assert "| **step** | 878.890 | 408.190 | -470.700 | 2.15× |" in md
    assert "| gen | 849.200 | 382.913 | -466.287 | 2.22× |" in md
    assert "sglang is 2.15× faster than vllm per step" in md
    assert "sglang is 2.22× faster than vllm in generation" in md
    # the order of the runs picks the reference, not the result
    md_rev = tr.render_markdown([sgl, vllm], tr.StepRange())
    assert "sglang is 2.15× faster than vllm per step" in md_rev
    assert "| **step** | 408.190 | 878.890 | +470.700 | 0.46× |" in md_rev


def test_jsonl_and_console_inputs_give_the_same_report(tr):
    a = asdict(_summary(tr, SGLANG, "sglang"))
    b = asdict(_summary(tr, SGLANG_JSONL, "sglang"))
    for key in ("source", "fmt", "files", "ignored_files", "lines_read"):
        a.pop(key), b.pop(key)
    assert a == b
    md_a = tr.render_run(_summary(tr, SGLANG, "sglang"))
    md_b = tr.render_run(_summary(tr, SGLANG_JSONL, "sglang"))
    # identical apart from the source line and the line count
    differ = [(x, y) for x, y in zip(md_a, md_b, strict=True) if x != y]
    assert len(differ) == 2 and differ[0][0].startswith("- source:") and differ[1][0].startswith("Parsing:")


def test_steps_selection_and_phases_missing_in_some_steps(tr, tmp_path):
    log = _write_log(
        tmp_path / "run.log",
        {
            1: {
                "timing_s/gen": 50.0,
                "timing_s/update_actor": 10.0,
                "timing_s/update_weights": 2.0,
                "timing_s/step": 70.0,
            },
            2: {
                "timing_s/gen": 30.0,
                "timing_s/update_actor": 8.0,
                "timing_s/update_weights": 2.0,
                "timing_s/step": 41.0,
            },
            3: {
                "timing_s/gen": 32.0,
                "timing_s/update_actor": 8.0,
                "timing_s/save_checkpoint": 6.0,
                "timing_s/update_weights": 2.0,
                "timing_s/step": 49.0,
            },
            4: {
                "timing_s/gen": 31.0,
                "timing_s/update_actor": 9.0,
                "timing_s/update_weights": 2.0,
                "timing_s/step": 43.0,
            },
        },
    )
    s = _summary(tr, log, "run", "2:")
    assert s.steps_used == [2, 3, 4] and s.steps_available == [1, 2, 3, 4]
    ck = s.phases["save_checkpoint"]
    assert (ck.mean, ck.median, ck.present, ck.n) == (pytest.approx(2.0), 0.0, 1, 3)
    assert s.step.mean == pytest.approx((41 + 49 + 43) / 3)
    assert s.remainder.mean == pytest.approx(s.step.mean - sum(st.mean for st in s.phases.values()))
    assert s.remainder.median == pytest.approx(1.0)
    with pytest.raises(timing_parse.TimingInputError, match=r"no timed step in --steps 9:.*1\.\.4"):
        _summary(tr, log, "run", "9:")


def test_mixed_versions_place_testing_by_layout(tr, tmp_path):
    """A run resumed under another verl: testing was inside step before, outside in 0.9."""
    log = _write_log(
        tmp_path / "run.log",
        {
            # older verl: gen has reshard/generate_sequences, testing inside step
            1: {
                "timing_s/generate_sequences": 20.0,
                "timing_s/reshard": 1.0,
                "timing_s/gen": 21.5,
                "timing_s/update_actor": 5.0,
                "timing_s/testing": 12.0,
                "timing_s/step": 39.0,
            },
            # verl 0.9 V1 trainer: update_weights; testing runs after the step timer stops
            2: {
                "timing_s/gen": 21.0,
                "timing_s/update_actor": 5.0,
                "timing_s/update_weights": 1.5,
                "timing_s/testing": 12.0,
                "timing_s/step": 28.0,
            },
        },
    )
    s = _summary(tr, log, "mixed")
    assert s.layouts == {"verl-sharding-managers": 1, "verl-0.9-v1": 1}
    assert s.phases["testing"].mean == pytest.approx(6.0) and s.phases["testing"].present == 1
    assert s.outside["testing"].mean == pytest.approx(6.0) and s.outside["testing"].present == 1
    assert s.remainder.mean == pytest.approx(((39.0 - 38.5) + (28.0 - 27.5)) / 2)
    assert s.notes == []


def test_unknown_and_agent_loop_keys_are_not_summed(tr, tmp_path):
    log = _write_log(
        tmp_path / "run.log",
        {
            1: {
                "timing_s/start_profile": 0.01,
                "timing_s/gen": 20.0,
                "timing_s/agent_loop/generate_sequences/max": 19.5,
                "timing_s/agent_loop/num_preempted/mean": 0.0,
                "timing_s/my_custom_hook": 3.0,
                "timing_s/update_actor": 5.0,
                "timing_s/update_weights": 1.0,
                "timing_s/step": 30.0,
                "timing_s/stop_profile": 0.02,
            }
        },
    )
    s = _summary(tr, log, "run")
    assert s.layouts == {"verl-0.9-legacy-loop": 1}
    assert set(s.phases) == {"gen", "update_actor", "update_weights"}
    assert set(s.unclassified) == {"my_custom_hook"}
    assert set(s.nested_stats["gen"]) == {
        "agent_loop/generate_sequences/max",
        "agent_loop/num_preempted/mean",
    }
    assert set(s.outside) == {"start_profile", "stop_profile"}
    assert s.remainder.mean == pytest.approx(4.0)
    md = tr.render_markdown([s], tr.StepRange())
    assert "my_custom_hook" in md and "Unclassified" in md


def test_old_key_names_are_normalized(ph):
    out = ph.normalize_metrics(
        {"timing/gen": 1.0, "timing_s/Role.RefPolicy": 2.0, "timing_per_token_ms/Role.RefPolicy": 3.0}
    )
    assert out == {"timing_s/gen": 1.0, "timing_s/ref": 2.0, "timing_per_token_ms/ref": 3.0}


def test_floating_key_that_cannot_fit_is_moved_outside(ph):
    bd = ph.breakdown(4, {"reshard": 1.0, "gen": 20.0, "testing": 50.0, "step": 25.0})
    assert "testing" in bd.outside and bd.remainder == pytest.approx(5.0)
    assert bd.notes and "does not fit" in bd.notes[0]
    assert ph.breakdown(1, {"gen": 1.0}) is None  # no timing_s/step: not a training step


def test_cli_markdown_json_and_plot(tmp_path):
    out, png, js = tmp_path / "r.md", tmp_path / "t.png", tmp_path / "r.json"
    res = _cli(
        str(VLLM),
        str(SGLANG),
        "--names",
        "vllm,sglang",
        "--steps",
        "3:",
        "--out",
        str(out),
        "--plot",
        str(png),
    )
    assert res.returncode == 0, res.stderr
    text = out.read_text()
    assert "2.15×" in text and "2.22×" in text
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
    res = _cli(str(VLLM), str(SGLANG_JSONL), "--json", "--out", str(js))
    assert res.returncode == 0, res.stderr
    doc = json.loads(js.read_text())
    step_row = next(r for r in doc["comparison"]["rows"] if r["phase"] == "step")
    assert round(step_row["speedup"][1], 2) == 2.15
    assert doc["runs"][1]["name"] == "sglang_step3" and doc["runs"][1]["fmt"] == "jsonl"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["does/not/exist.log"], "does/not/exist.log: no such file or directory"),
        ([str(SGLANG), "--names", "a,b"], "--names 'a,b': give 1 non-empty"),
        ([str(SGLANG), "--steps", "x:"], "--steps 'x:'"),
        ([str(SGLANG), "--plot", "t.svg"], "--plot t.svg"),
    ],
)
def test_cli_bad_input_is_a_clear_error(args, message):
    res = _cli(*args)
    assert res.returncode == 2
    assert message in res.stderr and "Traceback" not in res.stderr


def test_cli_empty_folder_names_it(tmp_path):
    res = _cli(str(tmp_path))
    assert res.returncode == 2 and f"{tmp_path}: no verl logs found" in res.stderr


def test_jobs_helper_finds_runs_by_id_via_site_file(tmp_path):
    logs = tmp_path / "logs"
    for job, src in (("1001", VLLM), ("1002", SGLANG_JSONL)):
        (logs / job).mkdir(parents=True)
        (logs / job / src.name).write_text(src.read_text())
    site = tmp_path / "site.env"
    site.write_text(f'export LOG_ROOT="{logs}"\n')
    env = {"PATH": "/usr/bin:/bin", "SITE_ENV": str(site), "PY": sys.executable, "STEPS": "3:"}
    script = str(TOOLS / "timing" / "jobs.sh")
    res = subprocess.run(
        ["bash", script, str(tmp_path / "out"), "1001", "1002"],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 0, res.stderr
    assert "1002 is 2.15× faster than 1001 per step" in res.stdout
    assert (tmp_path / "out" / "report_1001_1002.png").stat().st_size > 0
    res = subprocess.run(
        ["bash", script, str(tmp_path / "out"), "1001", "999"], env=env, capture_output=True, text=True
    )
    assert res.returncode == 2 and f"no log folder {logs}/999" in res.stderr and "1001 1002" in res.stderr


def test_jobs_helper_default_log_root_and_make_wiring(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "SITE_ENV": str(tmp_path / "no-site.env"), "PY": sys.executable}
    res = subprocess.run(
        ["bash", str(TOOLS / "timing" / "jobs.sh"), str(tmp_path / "out"), "42"],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert res.returncode == 2 and f"no log folder {ROOT}/.demo/logs/42" in res.stderr
    # make -n prints the recipe without running it
    res = subprocess.run(
        ["make", "-n", "report", "JOBS=11 22", "LOG_ROOT=/site/logs", "STEPS=3:"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert res.returncode == 0, res.stderr
    assert "LOG_ROOT='/site/logs'" in res.stdout and "STEPS='3:'" in res.stdout
    assert "tools/timing/jobs.sh" in res.stdout and res.stdout.rstrip().endswith("11 22")
