// Stands in for Vitest's fork worker in prefork.test.ts: answers each IPC message with itself.
process.on('message', (message) => process.send?.({ echo: message }));
