// Run benchmarks/browser_levels.py in Pyodide under Node: the offline site's runtime (node_modules/pyodide, from
// `npm ci`), the package from this checkout. Arguments go to the Python script.
//     node benchmarks/browser_levels.mjs --deals 2
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
pyodide.FS.writeFile("/lib/checkout/browser_levels.py", readFileSync(join(root, "benchmarks", "browser_levels.py")));
pyodide.globals.set("ARGS", pyodide.toPy(process.argv.slice(2)));
await pyodide.runPythonAsync(`
import sys
sys.path.insert(0, "/lib/checkout")
import browser_levels
browser_levels.main(list(ARGS))
`);
