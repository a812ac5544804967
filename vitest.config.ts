import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: keep the pool small so browser and emulator tests do not starve each other.
    maxWorkers: 2,
  },
});
