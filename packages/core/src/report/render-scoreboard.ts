import { ARM_HEADERS, ARM_LEGEND, armCells } from './arm-verdict-text.js';
import { caseLabeler, visibleWidth } from './rows.js';
import { caseKey } from './scoreboard.js';
import type { Scoreboard, ScoreboardCell } from './scoreboard-model.js';
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

/** Options of `renderScoreboard`. */
export interface ScoreboardRenderOptions {
  /**
   * Colour the count of a cell that passes by the rule green and of one that fails red, with ANSI codes.
   * @default false
   */
  color?: boolean;
}

type ResolvedScoreboardRenderOptions = Required<ScoreboardRenderOptions>;

const defaultRenderOptions: ResolvedScoreboardRenderOptions = { color: false };

const GREEN = '\u001b[32m';
const RED = '\u001b[31m';
// Resets the foreground colour only, so an outer style survives.
const DEFAULT_FOREGROUND = '\u001b[39m';

const COLUMN_GAP = '  ';

/**
 * Renders the scoreboard for a terminal: the cases × agents grid (each cell `passes/trials`, its marks
 * and its median time), one row per agent best first (score, interval, cells passed, median time,
 * tokens, cost, wrong answers and errors apart), the verdict, and a legend. Columns line up by display width.
 */
export function renderScoreboard(scoreboard: Scoreboard, options: ScoreboardRenderOptions = {}): string {
  const { color } = { color: options.color ?? defaultRenderOptions.color };
  if (scoreboard.cells.length === 0) return 'no cases ran\n';

  const lines = [...gridLines(scoreboard, color), '', ...agentLines(scoreboard), ''];
  if (scoreboard.verdict !== undefined) lines.push(verdictParts(scoreboard.verdict).join(': '));
  if (scoreboard.arms !== undefined && scoreboard.arms.length > 0) {
    lines.push('', 'skill arms', ...table(ARM_HEADERS, scoreboard.arms.map(armCells)), ARM_LEGEND, '');
  }
  lines.push(ruleSentence(scoreboard), `${FLAKY_MARK} ${MARK_LEGEND.flaky}; ${ERROR_MARK} ${MARK_LEGEND.error}`);
  if (hasEstimate(scoreboard)) lines.push(`${ESTIMATE_NOTE} ${MARK_LEGEND.estimate}`);
  return `${lines.join('\n')}\n`;
}

function gridLines(scoreboard: Scoreboard, color: boolean): string[] {
  const label = caseLabeler(scoreboard.cases);
  const cellOf = new Map(scoreboard.cells.map((cell) => [`${caseKey(cell)}\u0000${cell.agent}`, cell]));
  const rows = scoreboard.cases.map((scoreboardCase) =>
    scoreboard.agents.map((agent) => cellOf.get(`${caseKey(scoreboardCase)}\u0000${agent.name}`)),
  );
  // Within an agent's column the counts are padded alike, so the times line up too.
  const countWidths = scoreboard.agents.map((_, column) =>
    Math.max(...rows.map((row) => visibleWidth(cellCount(row[column])))),
  );
  const cellText = (cell: ScoreboardCell | undefined, column: number): string => {
    const count = cellCount(cell);
    const time = cellTime(cell);
    const padded = count + ' '.repeat((countWidths[column] ?? 0) - visibleWidth(count));
    const styled =
      color && cell !== undefined
        ? `${cell.passed ? GREEN : RED}${count}${DEFAULT_FOREGROUND}${padded.slice(count.length)}`
        : padded;
    return time === '' ? styled.trimEnd() : `${styled} ${time}`;
  };
  const header = ['case', ...scoreboard.agents.map((agent) => agentLabel(agent.name))];
  const body = scoreboard.cases.map((scoreboardCase, index) => [
    label(scoreboardCase),
    ...(rows[index] ?? []).map(cellText),
  ]);
  return table(header, body);
}

function agentLines(scoreboard: Scoreboard): string[] {
  const agents = rankedAgents(scoreboard);
  const showModels = agents.some((agent) => agent.usage.models.length > 0);
  const columns = showModels ? AGENT_HEADERS.length : AGENT_HEADERS.length - 1;
  return table(
    AGENT_HEADERS.slice(0, columns),
    agents.map((agent) => agentCells(agent).slice(0, columns)),
  );
}

/** A header, a dashed rule and the rows, every column but the last padded to its widest cell. */
function table(header: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = header.map((title, column) =>
    rows.reduce((widest, row) => Math.max(widest, visibleWidth(row[column] ?? '')), visibleWidth(title)),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) =>
        column === cells.length - 1 ? cell : cell + ' '.repeat(Math.max(0, (widths[column] ?? 0) - visibleWidth(cell))),
      )
      .join(COLUMN_GAP)
      .trimEnd();
  return [line(header), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)];
}
