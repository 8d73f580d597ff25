import { ARM_HEADERS, ARM_LEGEND, armCells } from './arm-verdict-text.js';
import { escapeMarkdown } from './markdown-escape.js';
import { caseLabeler } from './rows.js';
import { caseKey } from './scoreboard.js';
import type { Scoreboard } from './scoreboard-model.js';
import {
  AGENT_HEADERS,
  agentCells,
  agentLabel,
  cellCount,
  cellTime,
  ERROR_MARK,
  ESTIMATE_NOTE,
  FLAKY_MARK,
  hasEstimate,
  MARK_LEGEND,
  rankedAgents,
  ruleSentence,
  verdictParts,
} from './scoreboard-text.js';

// Numbers read best right-aligned; names, error breakdowns and models left.
const AGENT_ALIGNMENT = ['---', '---:', '---:', '---:', '---:', '---:', '---:', '---:', '---', '---', '---'] as const;

/**
 * Renders the scoreboard as GitHub-flavoured markdown for a pull request or a CI job summary: a
 * heading, the verdict, the per-agent table best first, the cases × agents grid and a legend. Case ids,
 * agent names and models are escaped, so none can end a cell or turn into markup.
 */
export function renderScoreboardMarkdown(scoreboard: Scoreboard): string {
  if (scoreboard.cells.length === 0) return 'no cases ran\n';
  const lines = ['## gz-bench scoreboard', '', `${sizeSentence(scoreboard)}.`, ''];
  if (scoreboard.verdict !== undefined) lines.push(verdictMarkdown(scoreboard), '');

  lines.push(
    row(AGENT_HEADERS),
    row(AGENT_ALIGNMENT),
    ...rankedAgents(scoreboard).map((agent) => row(agentCells(agent).map(escapeMarkdown))),
    '',
  );
  if (scoreboard.arms !== undefined && scoreboard.arms.length > 0) {
    lines.push(
      '### Skill arms',
      '',
      row(ARM_HEADERS),
      row(ARM_HEADERS.map((_, column) => (column < 2 || column === 5 ? '---' : '---:'))),
      ...scoreboard.arms.map((verdict) => row(armCells(verdict).map(escapeMarkdown))),
      '',
      escapeMarkdown(ARM_LEGEND),
      '',
    );
  }
  lines.push('### Cases', '');

  const label = caseLabeler(scoreboard.cases);
  const cellOf = new Map(scoreboard.cells.map((cell) => [`${caseKey(cell)}\u0000${cell.agent}`, cell]));
  lines.push(
    row(['case', ...scoreboard.agents.map((agent) => escapeMarkdown(agentLabel(agent.name)))]),
    row(['---', ...scoreboard.agents.map(() => '---')]),
    ...scoreboard.cases.map((scoreboardCase) =>
      row([
        escapeMarkdown(label(scoreboardCase)),
        ...scoreboard.agents.map((agent) => {
          const cell = cellOf.get(`${caseKey(scoreboardCase)}\u0000${agent.name}`);
          const time = cellTime(cell);
          return escapeMarkdown(time === '' ? cellCount(cell) : `${cellCount(cell)} · ${time}`);
        }),
      ]),
    ),
    '',
    legend(scoreboard),
  );
  return `${lines.join('\n')}\n`;
}

function verdictMarkdown(scoreboard: Scoreboard): string {
  if (scoreboard.verdict === undefined) return '';
  const [headline, evidence] = verdictParts(scoreboard.verdict);
  // Only our own words get a capital: an agent's name is shown as it is spelt.
  const title = scoreboard.verdict.withinNoise ? capitalise(headline) : headline;
  return `**${escapeMarkdown(title)}**: ${escapeMarkdown(evidence)}.`;
}

function legend(scoreboard: Scoreboard): string {
  const parts = [
    `Each cell: passes/trials · median time. ${capitalise(ruleSentence(scoreboard))}.`,
    `\`${FLAKY_MARK}\` ${MARK_LEGEND.flaky}.`,
    `\`${ERROR_MARK}\` ${MARK_LEGEND.error}.`,
  ];
  if (hasEstimate(scoreboard)) parts.push(`${escapeMarkdown(ESTIMATE_NOTE)} ${escapeMarkdown(MARK_LEGEND.estimate)}.`);
  return parts.join(' ');
}

/** `2 agents × 3 cases, 3 trials per cell` (`up to 3` when cells differ). */
function sizeSentence(scoreboard: Scoreboard): string {
  const counted = (count: number, one: string, many: string): string => `${count} ${count === 1 ? one : many}`;
  const uneven = scoreboard.cells.some((cell) => cell.trials !== scoreboard.maxTrials);
  const trials = `${uneven ? 'up to ' : ''}${counted(scoreboard.maxTrials, 'trial', 'trials')} per cell`;
  return `${counted(scoreboard.agents.length, 'agent', 'agents')} × ${counted(scoreboard.cases.length, 'case', 'cases')}, ${trials}`;
}

function row(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
