import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // One line each when the browser suites skip for want of Chromium, or the PostgreSQL ones for want of
    // TEST_DATABASE_URL (outside CI).
    globalSetup: ["test/browser/chromium-notice.ts", "test/server/postgres-notice.ts"],
    // Generous: CLI tests spawn processes, and a loaded machine must not turn slowness into failures.
    testTimeout: 90_000,
    hookTimeout: 60_000,
    // Two cores: keep the pool small so browser and emulator tests do not starve each other.
    maxWorkers: 2,
  },
});
