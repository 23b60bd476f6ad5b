// Preloaded into the Hardhat node the tests spawn: if the test process that started it dies without stopping
// it (killed run, crashed worker), the node exits too instead of lingering.
const parent = process.ppid;
setInterval(() => {
  try {
    process.kill(parent, 0);
  } catch {
    process.exit(0);
  }
}, 1000).unref();
