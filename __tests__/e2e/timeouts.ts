/**
 * Real-pi tests start Pi, wait out countdowns and poll a terminal: on a busy
 * machine they need far longer than a unit test. Imported by the session
 * helpers, so every end-to-end file gets this room.
 */
import { jest } from "@jest/globals";

export const E2E_TIMEOUT_MS = 120_000;
jest.setTimeout(E2E_TIMEOUT_MS);
