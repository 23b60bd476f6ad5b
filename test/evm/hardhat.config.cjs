// Hardhat Network for integration tests: one node per chain id (HARDHAT_CHAIN_ID), failed transactions are
// mined and reported by receipt status instead of thrown, and there is nothing to compile (contracts are
// compiled with solc-js by test/helpers/evm-contracts.ts).
module.exports = {
  paths: { sources: './no-sources', cache: '../../var/hardhat-cache', artifacts: '../../var/hardhat-artifacts' },
  networks: {
    hardhat: {
      chainId: Number(process.env.HARDHAT_CHAIN_ID || 8453),
      throwOnTransactionFailures: false,
      throwOnCallFailures: false,
      hardfork: 'cancun',
      mining: { auto: true, interval: 0 },
      accounts: { count: 10, accountsBalance: '1000000000000000000000000' },
    },
  },
};
