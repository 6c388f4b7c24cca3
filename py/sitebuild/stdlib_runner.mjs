// Runs stdlib_compile.py inside Pyodide under node: node stdlib_runner.mjs <pyodide.mjs URL> <indexURL>
// <official stdlib zip> <target zip> <stdlib_compile.py> <extra modules JSON> <date_time JSON>
import { readFileSync, writeFileSync } from "node:fs";

const [core, indexURL, source, target, program, extra, dateTime] = process.argv.slice(2);
const { loadPyodide } = await import(core);
const pyodide = await loadPyodide({ indexURL, env: { PYTHONNODEBUGRANGES: "1" } });
await pyodide.loadPackage("ptrnet", { messageCallback: () => {} });
pyodide.FS.mkdirTree("/build");
pyodide.FS.writeFile("/build/stdlib_compile.py", readFileSync(program));
pyodide.FS.writeFile("/build/source.zip", readFileSync(source));
pyodide.runPython("import sys; sys.path.append('/build')");
const compiler = pyodide.pyimport("stdlib_compile");
const kept = compiler.main("/build/source.zip", "/build/target.zip", extra, dateTime);
compiler.destroy();
writeFileSync(target, pyodide.FS.readFile("/build/target.zip"));
console.log(`${kept} stdlib modules compiled`);
