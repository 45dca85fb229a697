/**
 * What the sources and the unit tests use of Pi's package at run time,
 * taken from Pi's own modules that define it, without Pi's index: the index
 * loads every provider and the whole agent (about a second of every test
 * file), where these modules load in milliseconds. The unit project maps
 * `@earendil-works/pi-coding-agent` here (jest.config.js); type imports are
 * erased and never reach it. Anything else the index exports is missing here
 * on purpose: a source that starts using it fails its unit tests at import,
 * and is added here from the module that defines it.
 */
export { getAgentDir, VERSION } from "../../node_modules/@earendil-works/pi-coding-agent/dist/config.js";
export { createEventBus } from "../../node_modules/@earendil-works/pi-coding-agent/dist/core/event-bus.js";
