import { METHODS } from 'node:http'

/** Every HTTP method Node.js knows, lower-cased (`get`, `post`, ..., `m-search`). */
export const methods: readonly string[] = METHODS.map((m) => m.toLowerCase())
