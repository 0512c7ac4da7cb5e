// node scripts/with-node.mjs <version> <command> [args...] : run a command
// (the test suite, a bench) with another release of Node first on the PATH.
//
// Why: the suite and the benches run on each supported release (22, 24, 26)
// whatever Node the machine has. The official binaries are published on the
// npm registry as `node-<platform>-<arch>` packages (the ones the `node`
// package installs), so they can be fetched where only the registry is
// reachable.
//
// How: `npm pack` fetches the package for `version` (a major such as 24, or
// an exact version) into `.cache/node/`, unpacks it once, and the command runs
// with its `bin/` first on the PATH: `node` and `npm run` scripts use it, and
// so does every server the bench starts (they run `process.execPath`).
//
// Examples:
//   node scripts/with-node.mjs 24 npm test
//   node scripts/with-node.mjs 22 node bench/pairs.mjs 08-wrapped
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const [version, ...command] = process.argv.slice(2)
if (!version || command.length === 0) {
  console.error('usage: node scripts/with-node.mjs <version> <command> [args...]')
  process.exit(2)
}
const platform = process.platform === 'win32' ? 'win' : process.platform
const name = `node-${platform}-${process.arch}`
const cache = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '.cache', 'node')
mkdirSync(cache, { recursive: true })

// the exact version the registry resolves `version` to (the newest of a major)
const shell = process.platform === 'win32'
const versions = JSON.parse(execFileSync('npm', ['view', `${name}@${version}`, 'version', '--json'], { encoding: 'utf8', shell }))
const exact = Array.isArray(versions) ? versions[versions.length - 1] : versions
const dir = path.join(cache, `${name}-${exact}`)
if (!existsSync(path.join(dir, 'package'))) {
  execFileSync('npm', ['pack', `${name}@${exact}`, '--pack-destination', cache, '--loglevel=error'], { stdio: ['ignore', 'ignore', 'inherit'], shell })
  mkdirSync(dir, { recursive: true })
  const tarball = path.join(cache, `${name}-${exact}.tgz`)
  execFileSync('tar', ['xzf', tarball, '-C', dir])
  rmSync(tarball)
}
const bin = path.join(dir, 'package', 'bin')
if (!readdirSync(bin).some((f) => f === 'node' || f === 'node.exe')) throw new Error(`no node binary in ${bin}`)
const env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH}` }
console.error(`with-node: ${name}@${exact} (${bin})`)
const run = spawnSync(command[0], command.slice(1), { stdio: 'inherit', env, shell })
process.exit(run.status ?? 1)
