// Runs Python under MicroPython (the npm package the page will use, pinned by package-lock.json) in Node,
// for the tests that prove the rules' modules are plain Python all three interpreters share.
//
//   node tools/micropython_run.mjs SCRIPT.py [SOURCE=DEST ...]
//
// Each SOURCE file is written to DEST in MicroPython's in-memory file system, under /lib (on its sys.path),
// e.g. py/game2048/mersenne.py=game2048/mersenne.py; then SCRIPT.py runs.  Its output goes to stdout; an
// uncaught Python exception prints its traceback on stderr and exits with status 1.
import { readFileSync } from "node:fs";
import { dirname } from "node:path";
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";

const [script, ...mounts] = process.argv.slice(2);
if (!script) {
  console.error("usage: node tools/micropython_run.mjs SCRIPT.py [SOURCE=DEST ...]");
  process.exit(2);
}
const out = [];
const mp = await loadMicroPython({
  stdout: (line) => out.push(line),
  stderr: (line) => process.stderr.write(line + "\n"),
});
const made = new Set();
function makeDirs(path) {
  const parts = path.split("/").filter(Boolean);
  let at = "";
  for (const part of parts) {
    at += "/" + part;
    if (!made.has(at)) {
      try { mp.FS.mkdir(at); } catch { /* exists */ }
      made.add(at);
    }
  }
}
for (const mount of mounts) {
  const [source, dest] = mount.split("=");
  const target = "/lib/" + dest;
  makeDirs(dirname(target));
  mp.FS.writeFile(target, readFileSync(source)); // bytes: a precompiled .mpy as well as source
}
let status = 0;
try {
  // runPythonAsync: a script may await at its top level (asyncio tasks, as on the page).
  await mp.runPythonAsync("import sys\nif '/lib' not in sys.path: sys.path.append('/lib')\n" + readFileSync(script, "utf8"));
} catch (error) {
  process.stderr.write(String(error.message || error) + "\n");
  status = 1;
}
// exitCode, not exit(): the output is written in full before Node ends, however long it is.
process.stdout.write(out.join("\n") + (out.length ? "\n" : ""));
process.exitCode = status;
