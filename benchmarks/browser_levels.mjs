// Run benchmarks/browser_levels.py in Pyodide under Node: the offline site's runtime (node_modules/pyodide, from
// `npm ci`), the package from this checkout. Arguments go to the Python script; a first argument naming another
// benchmark's script runs that one instead (benchmarks/browser_review.py).
//     node benchmarks/browser_levels.mjs --deals 2
//     node benchmarks/browser_levels.mjs benchmarks/browser_review.py
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide } from "../node_modules/pyodide/pyodide.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const pyodide = await loadPyodide();

/** Copy the piquet package's Python files and data into Pyodide's file system (no compiled kernel). */
function copy(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const target = "/lib/checkout/" + relative(root, path);
    if (statSync(path).isDirectory()) {
      if (name === "__pycache__" || name === "static") continue;
      pyodide.FS.mkdirTree(target);
      copy(path);
    } else if (!/\.(so|c|pyc)$/.test(name)) {
      pyodide.FS.writeFile(target, readFileSync(path));
    }
  }
}
pyodide.FS.mkdirTree("/lib/checkout/piquet");
copy(join(root, "piquet"));
const named = process.argv[2] && process.argv[2].endsWith(".py") ? process.argv[2] : null;
const script = named ? join(root, named) : join(root, "benchmarks", "browser_levels.py");
const module = script.replace(/^.*\//, "").replace(/\.py$/, "");
pyodide.FS.mkdirTree("/lib/checkout/benchmarks");
pyodide.FS.writeFile(`/lib/checkout/benchmarks/${module}.py`, readFileSync(script));
pyodide.FS.mkdirTree("/lib/checkout/tests/records");
for (const name of readdirSync(join(root, "tests", "records"))) {
  pyodide.FS.writeFile(`/lib/checkout/tests/records/${name}`, readFileSync(join(root, "tests", "records", name)));
}
pyodide.globals.set("ARGS", pyodide.toPy(process.argv.slice(named ? 3 : 2)));
pyodide.globals.set("MODULE", module);
await pyodide.runPythonAsync(`
import importlib
import sys
sys.path[:0] = ["/lib/checkout", "/lib/checkout/benchmarks"]
importlib.import_module(MODULE).main(list(ARGS))
`);
