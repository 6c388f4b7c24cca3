// Runs bytecode_compile.py inside Pyodide under node: node bytecode_runner.mjs <pyodide.mjs URL> <indexURL>
// <official stdlib zip> <target zip> <bytecode_compile.py> <extra modules JSON> <date_time JSON> <wheels JSON>
// <left-out patterns JSON>. The wheels (paths on disk) are rewritten in place, their modules compiled.
import { readFileSync, writeFileSync } from "node:fs";

const [core, indexURL, source, target, program, extra, dateTime, wheels, leftOut] = process.argv.slice(2);
const { loadPyodide } = await import(core);
const pyodide = await loadPyodide({ indexURL, env: { PYTHONNODEBUGRANGES: "1" } });
await pyodide.loadPackage("ptrnet", { messageCallback: () => {} });
pyodide.FS.mkdirTree("/build");
pyodide.FS.writeFile("/build/bytecode_compile.py", readFileSync(program));
pyodide.FS.writeFile("/build/source.zip", readFileSync(source));
pyodide.runPython("import sys; sys.path.append('/build')");
const compiler = pyodide.pyimport("bytecode_compile");
const kept = compiler.main("/build/source.zip", "/build/target.zip", extra, dateTime);
writeFileSync(target, pyodide.FS.readFile("/build/target.zip"));
console.log(`${kept} stdlib modules compiled`);
for (const wheel of JSON.parse(wheels)) {
  pyodide.FS.writeFile("/build/wheel.zip", readFileSync(wheel));
  const compiled = compiler.compile_wheel("/build/wheel.zip", "/build/compiled.zip", dateTime, leftOut);
  writeFileSync(wheel, pyodide.FS.readFile("/build/compiled.zip"));
  console.log(`${wheel.split("/").pop()}: ${compiled} modules compiled`);
}
compiler.destroy();
