/**
 * Compiles the test smart accounts (test/fixtures/chain/contracts/*.sol) with the solc package
 * the project pins and writes their ABI and bytecode to compiled.json beside them, which the
 * local-chain fixture deploys. The output is committed so tests need no compiler at run time;
 * test/scripts/contracts.test.ts recompiles and fails when sources and output part ways.
 *
 *   npm run contracts
 */
import fs from 'node:fs';
import path from 'node:path';
import solc from 'solc';

const projectRoot = path.resolve(__dirname, '..', '..');
export const contractsDir = path.join(projectRoot, 'test/fixtures/chain/contracts');
export const compiledPath = path.join(contractsDir, 'compiled.json');

/** The contracts the fixtures use, each from the source file of the same name. */
const contractNames = ['TestAccount', 'TestAccountFactory'] as const;
export type ContractName = (typeof contractNames)[number];

export interface CompiledContract {
  abi: unknown[];
  /** Creation bytecode, 0x-prefixed. */
  bytecode: string;
}

export interface CompiledContracts {
  solcVersion: string;
  contracts: Record<ContractName, CompiledContract>;
}

interface SolcOutput {
  errors?: { severity: 'error' | 'warning' | 'info'; formattedMessage: string }[];
  contracts?: Record<
    string,
    Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>
  >;
}

export function compileTestAccounts(): CompiledContracts {
  const sources = Object.fromEntries(
    contractNames.map((name) => [
      `${name}.sol`,
      { content: fs.readFileSync(path.join(contractsDir, `${name}.sol`), 'utf8') },
    ]),
  );
  const input = {
    language: 'Solidity',
    sources,
    settings: {
      optimizer: { enabled: true, runs: 200 },
      // Cancun: the newest fork both solc 0.8.37 and Hardhat 2.29's node (Osaka by default) run.
      evmVersion: 'cancun',
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
  // Imports are relative between the sources given, so solc needs no file callback.
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const problems = (output.errors ?? []).filter((error) => error.severity !== 'info');
  if (problems.length > 0) {
    // A warning fails the build too: the fixture's contracts should compile clean.
    throw new Error(
      `solc ${solc.version()} reported:\n${problems.map((error) => error.formattedMessage).join('\n')}`,
    );
  }
  const contracts = Object.fromEntries(
    contractNames.map((name) => {
      const compiled = output.contracts?.[`${name}.sol`]?.[name];
      if (!compiled) throw new Error(`solc produced no ${name} from ${name}.sol`);
      return [name, { abi: compiled.abi, bytecode: `0x${compiled.evm.bytecode.object}` }];
    }),
  ) as Record<ContractName, CompiledContract>;
  return { solcVersion: solc.version(), contracts };
}

/** compiled.json's text: pretty-printed, keys in a fixed order, so a rebuild changes no byte. */
export const renderCompiled = (compiled: CompiledContracts): string =>
  `${JSON.stringify(compiled, null, 2)}\n`;

if (require.main === module) {
  const compiled = compileTestAccounts();
  fs.writeFileSync(compiledPath, renderCompiled(compiled));
  console.log(
    `${path.relative(projectRoot, compiledPath)}: ${contractNames.join(', ')} (solc ${compiled.solcVersion})`,
  );
}
