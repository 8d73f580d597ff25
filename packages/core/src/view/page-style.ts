/** The page's styles, inlined into its `<style>` (no `</style>` in it: a test checks). */
export const PAGE_STYLE = `
:root{--bg:#f6f7f9;--panel:#fff;--ink:#1d2330;--muted:#667085;--line:#e3e6eb;--accent:#3b5bdb;
--pass:#2f9e44;--fail:#e03131;--err:#e8590c;--add-bg:#e6ffec;--add:#116329;--del-bg:#ffebe9;--del:#82071e;
--hunk:#ddf4ff;--mono:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace}
*{box-sizing:border-box}
body{margin:0;font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:var(--bg)}
header.top{background:#1d2330;color:#fff;padding:14px 24px;display:flex;gap:18px;align-items:baseline;flex-wrap:wrap}
header.top h1{font-size:18px;margin:0;font-weight:600}
header.top .meta{color:#aab2c0;font-size:12px}
header.top .counts{margin-left:auto;display:flex;gap:8px}
main{padding:16px 24px;max-width:1600px}
section.panel{background:var(--panel);border:1px solid var(--line);border-radius:8px;padding:12px 16px;margin-bottom:14px}
section.panel h2{font-size:13px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted);margin:0 0 8px}
table{border-collapse:collapse}
table.data{width:100%;font-size:13px}
table.data th{text-align:left;color:var(--muted);font-weight:500;border-bottom:1px solid var(--line);padding:4px 8px;white-space:nowrap}
table.data td{padding:4px 8px;border-bottom:1px solid #f0f1f4;vertical-align:top}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.pill{display:inline-block;border-radius:999px;padding:1px 9px;font-size:12px;font-weight:600;white-space:nowrap}
.pill.passed{background:#d3f9d8;color:#1b5e20}.pill.failed,.pill.tampered,.pill.timedOut{background:#ffe3e3;color:#a61e1e}
.pill.agentError,.pill.harnessError,.pill.overBudget,.pill.notRun{background:#ffe8cc;color:#a04400}
.pill.neutral{background:#e9ecef;color:#343a40}.pill.dark{background:#343a40;color:#fff}
.verdict{font-size:15px;margin:8px 0 2px}.verdict b{font-weight:600}
.note{color:var(--muted);font-size:12px}
.bar{position:relative;display:inline-block;width:120px;height:10px;background:#edf0f3;border-radius:5px;vertical-align:middle;margin-right:6px}
.bar .range{position:absolute;top:2px;height:6px;background:#a5b4fc;border-radius:3px}
.bar .point{position:absolute;top:0;width:3px;height:10px;background:var(--accent);border-radius:1px}
.filters{display:flex;gap:10px;flex-wrap:wrap;align-items:center;margin-bottom:10px}
.filters label{font-size:12px;color:var(--muted);display:flex;gap:5px;align-items:center}
.filters select,.filters input{font:inherit;font-size:13px;padding:4px 6px;border:1px solid var(--line);border-radius:5px;background:#fff}
.filters input{width:220px}
.grid-wrap{overflow:auto;max-height:70vh}
table.grid th{position:sticky;top:0;background:var(--panel);z-index:1;padding:6px 8px;text-align:center;font-weight:600;border-bottom:1px solid var(--line)}
table.grid th.case{text-align:left}
table.grid td{padding:3px 4px;border-bottom:1px solid #f0f1f4}
table.grid td.case{padding:3px 10px 3px 0;max-width:480px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
table.grid tr.group td{font-weight:600;color:var(--muted);padding-top:10px;font-size:12px}
.suite{color:var(--muted)}
button.cell{font:inherit;font-size:13px;font-variant-numeric:tabular-nums;min-width:92px;border:1px solid rgba(0,0,0,.06);border-radius:5px;padding:4px 8px;cursor:pointer;color:#1d2330}
button.cell:hover{outline:2px solid var(--accent)}button.cell.selected{outline:2px solid #1d2330}
button.cell.empty{background:#f3f4f6;color:#adb5bd;cursor:default}
button.cell .marks{font-weight:700;margin-left:4px}
button.cell .verdict-mark{font-size:11px;margin-left:4px;opacity:.75}
.more{margin-top:8px}
button.link{font:inherit;background:none;border:none;color:var(--accent);cursor:pointer;padding:0}
#drawer{position:fixed;top:0;right:0;bottom:0;width:min(1000px,64vw);background:#fff;border-left:1px solid var(--line);box-shadow:-8px 0 24px rgba(0,0,0,.08);overflow:auto;padding:16px 20px;display:none;z-index:5}
#drawer.open{display:block}
#drawer h2{margin:0 0 4px;font-size:17px;word-break:break-all}
#drawer .close{position:sticky;top:0;float:right;font-size:20px;border:none;background:#fff;cursor:pointer;color:var(--muted)}
.trials{display:flex;gap:6px;flex-wrap:wrap;margin:10px 0}
button.trial{font:inherit;font-size:12px;border:1px solid var(--line);border-radius:6px;background:#fff;padding:4px 10px;cursor:pointer}
button.trial.selected{border-color:#1d2330;box-shadow:0 0 0 1px #1d2330}
.trial-body h3{font-size:13px;text-transform:uppercase;letter-spacing:.04em;color:var(--muted);margin:18px 0 6px}
.kv{display:grid;grid-template-columns:max-content 1fr;gap:2px 14px;font-size:13px}.kv dt{color:var(--muted)}.kv dd{margin:0;word-break:break-word}
.error-box{background:#fff5f5;border:1px solid #ffc9c9;border-radius:6px;padding:8px 10px;white-space:pre-wrap;word-break:break-word;font-family:var(--mono);font-size:12px}
.warn-box{background:#fff9db;border:1px solid #ffe066;border-radius:6px;padding:6px 10px;font-size:13px;margin:4px 0}
pre{font-family:var(--mono);font-size:12px;background:#f8f9fa;border:1px solid var(--line);border-radius:6px;padding:8px 10px;overflow:auto;max-height:420px;white-space:pre-wrap;word-break:break-word;margin:4px 0}
.check{border:1px solid var(--line);border-radius:6px;padding:6px 10px;margin:4px 0}
.check .head{display:flex;gap:8px;align-items:center;flex-wrap:wrap}
.check .kind{font-family:var(--mono);font-weight:600;font-size:12px}
.check .field{font-family:var(--mono);font-size:12px;color:#495057}
.files td{font-family:var(--mono);font-size:12px}
.st-added{color:var(--add)}.st-deleted{color:var(--del)}.st-modified{color:#9a6700}
.plus{color:var(--add)}.minus{color:var(--del)}
.diff{padding:0;background:#fff;max-height:560px}
.diff span{display:block;padding:0 10px;white-space:pre-wrap}
.diff .add{background:var(--add-bg);color:var(--add)}.diff .del{background:var(--del-bg);color:var(--del)}
.diff .hunk{background:var(--hunk);color:#0550ae}.diff .file{background:#f1f3f5;color:#343a40;font-weight:600}
.step{border-left:3px solid var(--line);padding:4px 0 4px 12px;margin:10px 0}
.step.user{border-color:#74c0fc}.step.agent{border-color:#b197fc}.step.system{border-color:#ced4da}
.step .who{font-size:12px;color:var(--muted);display:flex;gap:10px;flex-wrap:wrap}
.step .who b{color:var(--ink)}
.step .msg{white-space:pre-wrap;word-break:break-word;margin:3px 0}
details{margin:4px 0}
details>summary{cursor:pointer;font-size:13px}
details.call{border:1px solid var(--line);border-radius:6px;padding:4px 8px;background:#fcfcfd}
details.call>summary code{font-family:var(--mono);font-size:12px;background:#f1f3f5;padding:1px 5px;border-radius:4px}
details.call.error{border-color:#ffc9c9}
.tok{font-size:11px;color:var(--muted);font-variant-numeric:tabular-nums}
a{color:var(--accent)}
.empty-state{color:var(--muted);padding:20px 0;text-align:center}
`;
