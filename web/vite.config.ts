// The review console, built to web/dist and served by the API at /console (src/api/console.ts).
import preact from "@preact/preset-vite";
import { defineConfig } from "vite";

export default defineConfig({
  root: import.meta.dirname,
  base: "/console/",
  plugins: [preact()],
  build: { outDir: "dist", emptyOutDir: true, target: "es2022" },
});
