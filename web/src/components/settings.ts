// Settings: capacities per memory type (with presets), spill cost model, policy, order source,
// the order search's effort and the objective (bytes | cycles). The policy and order menus are the engine's registries (policies(),
// orders(): the first is the default), each choice explained below them. The capacity fields show
// whether each value is the graph's own (its "Capacities"), a default, or an override; a field
// whose text is not usable is named in a message and stops Run.
import { setFieldError, type State, type Store } from '../store';
import {
  EFFORT_PRESETS,
  ORDER_FILE,
  PRESETS,
  copyCapacities,
  capacityProblem,
  type Settings,
  type CostModel,
  type Objective,
} from '../lib/settings';
import { LIMITS, fmtLimit } from '../lib/limits';
import { fmtInt, h } from '../lib/format';
import { parseOrderFile } from '../lib/files';
import { policyText } from '../lib/explanations';
import type { OrderSourceInfo } from '../engine/types';

/** The effort select's value for a number typed in its field. */
const EFFORT_NUMBER = 'number';
const NO_ORDERS: OrderSourceInfo[] = [];

/** The panel's elements, what it last showed, and where it reports. */
interface Panel {
  store: Store;
  notify: (msg: string, level?: 'info' | 'warn' | 'error') => void;
  el: ReturnType<typeof capacityElements> & ReturnType<typeof planElements>;
  /** the order menu's sources, as last rendered */
  orderSources: OrderSourceInfo[];
  /** the field ids of the capacity fields on screen */
  capFields: string[];
}

export function mountSettings(
  root: HTMLElement,
  store: Store,
  notify: (msg: string, level?: 'info' | 'warn' | 'error') => void,
) {
  const p: Panel = { store, notify, el: { ...capacityElements(), ...planElements() }, orderSources: [], capFields: [] };
  layOut(root, p);
  attachCapacityInput(p);
  attachPlanInput(p);
  store.subscribe((s, prev) => onStoreChange(p, s, prev));
  renderCaps(p);
  renderRest(p);
}

function capacityElements() {
  const capList = h('div', { class: 'caps' });
  const originLine = h('div', { class: 'caps-origin muted small', 'data-testid': 'caps-origin' });
  const errorList = h('div', { class: 'field-errors', 'data-testid': 'settings-errors', role: 'alert' });
  const preset = h(
    'select',
    { class: 'preset', 'aria-label': 'Capacity preset', 'data-testid': 'preset' },
    h('option', { value: '' }, 'Preset…'),
    ...Object.keys(PRESETS).map((k) => h('option', { value: k }, k)),
  );
  const newType = h('input', { class: 'new-type', placeholder: 'type', 'aria-label': 'New memory type', size: 5 });
  const newCap = h('input', {
    class: 'new-cap',
    placeholder: 'bytes',
    inputmode: 'numeric',
    'aria-label': 'New memory capacity in bytes',
  });
  const addBtn = h('button', { class: 'btn small', type: 'button', title: 'Add a memory type' }, '+ Add');
  return { capList, originLine, errorList, preset, newType, newCap, addBtn };
}

function planElements() {
  const policy = h('select', { 'data-testid': 'policy', 'aria-label': 'Policy' });
  const cost = h(
    'select',
    {
      'data-testid': 'cost-model',
      'aria-label': 'Spill cost model',
      title:
        'contest: SPILL_IN = 2·size+150 cycles, SPILL_OUT the same (0 for a COPY_IN buffer); seed: fixedLatency + cyclesPerByte·size',
    },
    h('option', { value: 'contest' }, 'contest'),
    h('option', { value: 'seed' }, 'seed'),
  );
  const fixed = h('input', {
    inputmode: 'numeric',
    'data-testid': 'fixed-latency',
    'aria-label': 'fixedLatency (cycles)',
  });
  const perByte = h('input', {
    inputmode: 'numeric',
    'data-testid': 'cycles-per-byte',
    'aria-label': 'cyclesPerByte (cycles)',
  });
  const seedParams = h(
    'div',
    { class: 'seed-params' },
    h('label', {}, 'fixedLatency', fixed),
    h('label', {}, 'cyclesPerByte', perByte),
  );
  // the engine's order sources (filled in once it is loaded), and the page's own: an order file
  const order = h('select', { 'data-testid': 'order-source', 'aria-label': 'Order source' });
  const effort = h(
    'select',
    { 'data-testid': 'effort', 'aria-label': 'Order search effort' },
    h('option', { value: '' }, 'default (by graph size)'),
    ...EFFORT_PRESETS.map(([name, n]) => h('option', { value: name }, `${name} (${fmtInt(n)})`)),
    h('option', { value: EFFORT_NUMBER }, 'a number…'),
  );
  const effortNumber = h('input', {
    inputmode: 'numeric',
    'data-testid': 'effort-number',
    'aria-label': 'Order search effort in evaluations',
    size: 9,
    hidden: true,
  });
  const policyHelp = h('p', { class: 'help', 'data-testid': 'policy-help' });
  const orderHelp = h('p', { class: 'help', 'data-testid': 'order-help' });
  // the effort's help shows once an effort is chosen (the select's title has it always), so that
  // the settings stay short for the default
  const effortText =
    'the order search\u2019s budget, in orders scored (evaluations). The same effort gives the same plan as `spillway plan --effort N`; a larger one a plan at least as good. A long search shows the plan of each smaller effort as it is made, and Cancel keeps the best so far.';
  effort.title = `Effort: ${effortText}`;
  const effortHelp = h('p', { class: 'help', 'data-testid': 'effort-help' }, h('strong', {}, 'Effort: '), effortText);
  const objectiveText =
    'bytes moves the least data (the default). cycles starts from that plan and makes it finish sooner under the pipe model (placement for time, loads and reloads hoisted, the order by simulated start), moving at most the margin more data (10% unless set): `spillway plan --objective cycles --margin M`. The summary shows both plans’ figures.';
  const objective = h(
    'select',
    { 'data-testid': 'objective', 'aria-label': 'Objective', title: `Objective: ${objectiveText}` },
    h('option', { value: 'bytes' }, 'bytes (least data moved)'),
    h('option', { value: 'cycles' }, 'cycles (finish sooner)'),
  );
  const margin = h('input', {
    inputmode: 'numeric',
    'data-testid': 'margin',
    'aria-label': 'Data margin of the cycles objective (percent)',
    title: 'how much more data than the bytes plan the cycles plan may move, in percent (0 to 1,000)',
    size: 4,
  });
  const marginPick = h('span', { class: 'margin-pick', 'data-testid': 'margin-pick' }, 'margin ', margin, ' %');
  const objectiveHelp = h(
    'p',
    { class: 'help', 'data-testid': 'objective-help' },
    h('strong', {}, 'Objective: '),
    objectiveText,
  );
  const orderInput = h('input', { type: 'file', accept: '.txt,text/plain', hidden: true, 'data-testid': 'order-file' });
  const orderInfo = h('span', { class: 'muted small order-info' });
  return {
    policy,
    cost,
    fixed,
    perByte,
    seedParams,
    order,
    effort,
    effortNumber,
    policyHelp,
    orderHelp,
    effortHelp,
    objective,
    margin,
    marginPick,
    objectiveHelp,
    orderInput,
    orderInfo,
  };
}

function layOut(root: HTMLElement, p: Panel) {
  const {
    capList,
    originLine,
    errorList,
    preset,
    newType,
    newCap,
    addBtn,
    policy,
    cost,
    seedParams,
    order,
    effort,
    effortNumber,
    policyHelp,
    orderHelp,
    effortHelp,
    objective,
    marginPick,
    objectiveHelp,
    orderInput,
    orderInfo,
  } = p.el;
  root.append(
    h('div', { class: 'set-row caps-head' }, h('span', { class: 'set-label' }, 'Capacity (bytes)'), preset),
    capList,
    originLine,
    h('div', { class: 'cap-add' }, newType, newCap, addBtn),
    h(
      'div',
      { class: 'set-grid' },
      h('label', {}, h('span', { class: 'set-label' }, 'Policy'), policy),
      h('label', {}, h('span', { class: 'set-label' }, 'Spill cost'), cost),
      // the order sources' titles are the longest choices: the whole row, so none is cut
      h('label', { class: 'wide' }, h('span', { class: 'set-label' }, 'Order'), order),
      h(
        'label',
        {},
        h('span', { class: 'set-label' }, 'Effort'),
        h('span', { class: 'effort-pick' }, effort, effortNumber),
      ),
      // the whole row: the objective's choices and, under cycles, its margin beside
      h(
        'label',
        { class: 'wide' },
        h('span', { class: 'set-label' }, 'Objective'),
        h('span', { class: 'effort-pick' }, objective, marginPick),
      ),
    ),
    seedParams,
    h('div', {}, orderInput, orderInfo),
    errorList,
    policyHelp,
    orderHelp,
    effortHelp,
    objectiveHelp,
  );
}

/** The order menu: the engine's sources (the first is the default), then an order file. */
function renderOrders(p: Panel, list: OrderSourceInfo[]) {
  if (list === p.orderSources) return;
  p.orderSources = list;
  p.el.order.replaceChildren(
    ...list.map((o, i) =>
      h('option', { value: o.name, title: o.description }, i === 0 ? `${o.title} (default)` : o.title),
    ),
    h('option', { value: ORDER_FILE }, 'order file…'),
  );
}

/** The effort menu shows a named choice when the effort is one, else the number in its field. */
function renderEffort(p: Panel, value: number | null) {
  const { effort, effortNumber, effortHelp } = p.el;
  const named = EFFORT_PRESETS.find(([, n]) => n === value)?.[0];
  const typing =
    document.activeElement === effortNumber ||
    (effort.value === EFFORT_NUMBER && effortNumber.getAttribute('aria-invalid') === 'true');
  if (!typing) effort.value = value === null ? '' : (named ?? EFFORT_NUMBER);
  effortNumber.hidden = effort.value !== EFFORT_NUMBER;
  effortHelp.hidden = effort.value === '';
  if (!typing && value !== null) effortNumber.value = String(value);
}

function renderCaps(p: Panel) {
  const { store } = p;
  const { capList } = p.el;
  const set = (patch: Partial<Settings>) => store.setSettings(patch);
  const caps = store.get().settings.capacities;
  for (const f of p.capFields) setFieldError(f, null); // rebuilt fields show the stored, valid values
  p.capFields = caps.map(([t]) => `cap-${t}`);
  capList.replaceChildren();
  caps.forEach(([type, value], i) => {
    const field = `cap-${type}`;
    const input = h('input', {
      type: 'text',
      inputmode: 'numeric',
      value: String(value),
      'data-testid': field,
      'aria-label': `${type} capacity in bytes`,
      spellcheck: 'false',
    });
    input.addEventListener('input', () => {
      const problem = capacityProblem(input.value);
      input.classList.toggle('invalid', !!problem);
      input.setAttribute('aria-invalid', String(!!problem));
      setFieldError(
        field,
        problem
          ? `The ${type} capacity field: ${problem}. Enter a whole number of bytes from 1 to ${fmtLimit(LIMITS.capacityBytes)}.`
          : null,
      );
      if (problem) return;
      const v = Number(input.value.trim());
      const next = store.get().settings.capacities.map((e, j) => (j === i ? [e[0], v] : e) as [string, number]);
      set({ capacities: next });
    });
    const rm = h(
      'button',
      { class: 'icon-btn', type: 'button', title: `Remove ${type}`, 'aria-label': `Remove ${type}` },
      '×',
    );
    rm.addEventListener('click', () => set({ capacities: store.get().settings.capacities.filter((_, j) => j !== i) }));
    const mark = h('span', { class: 'cap-mark', 'aria-hidden': 'true' });
    capList.append(
      h('label', { class: 'cap', 'data-type': type }, h('span', { class: 'cap-type' }, type), input, mark, rm),
    );
  });
  renderOrigin(p);
}

/** Marks each capacity field as the graph's, a default, or an override of the graph's. */
function renderOrigin(p: Panel) {
  const { store } = p;
  const { capList, originLine } = p.el;
  const info = store.get().graphInfo;
  const caps = store.get().settings.capacities;
  const graphCaps = info?.json && !info.capacitiesProblem ? info.capacities : undefined;
  const origin = info?.program ? 'program\u2019s memory line' : 'graph\u2019s Capacities';
  const unit = info?.program ? '' : ' bytes'; // a program's capacity counts registers or bytes
  let overrides = 0;
  for (const el of capList.querySelectorAll<HTMLElement>('.cap')) {
    const type = el.dataset.type!;
    const value = caps.find(([t]) => t === type)?.[1];
    const own = graphCaps?.find(([t]) => t === type)?.[1];
    const override = !!graphCaps && own !== value;
    if (override) overrides++;
    el.classList.toggle('override', override);
    el.dataset.origin = !info?.json ? '' : override ? 'override' : graphCaps ? 'graph' : 'settings';
    el.title = !graphCaps
      ? ''
      : own === undefined
        ? `${type} is not in the ${origin}: this field adds it.`
        : override
          ? `The ${origin} says ${type} = ${fmtInt(own)}${unit}; this field overrides it.`
          : `${type} = ${fmtInt(own)}${unit}, from the ${origin}.`;
    (el.querySelector('.cap-mark') as HTMLElement).textContent = override ? 'override' : '';
  }
  const missing = graphCaps ? graphCaps.filter(([t]) => !caps.some(([c]) => c === t)).length : 0;
  originLine.hidden = !info?.json;
  if (!info?.json) return;
  const reset = h(
    'button',
    { class: 'link-btn', type: 'button', 'data-testid': 'caps-reset' },
    graphCaps ? `use the ${info.program ? 'program\u2019s' : 'graph\u2019s'}` : 'use the defaults',
  );
  reset.addEventListener('click', () =>
    store.setSettings({
      capacities: graphCaps ? copyCapacities(graphCaps) : copyCapacities(PRESETS['defaults (contest)']),
    }),
  );
  if (graphCaps) {
    const n = overrides + missing;
    originLine.replaceChildren(
      n
        ? h('span', {}, `${n} field${n > 1 ? 's' : ''} override${n > 1 ? '' : 's'} the ${origin} · `, reset)
        : h('span', {}, `From the ${origin}.`),
    );
  } else {
    const isDefault = JSON.stringify(caps) === JSON.stringify(PRESETS['defaults (contest)']);
    originLine.replaceChildren(
      h(
        'span',
        {},
        `The graph names no Capacities: ${isDefault ? 'the defaults apply.' : 'these fields apply · '}`,
        isDefault ? '' : reset,
      ),
    );
  }
}

/** Everything but the capacity fields: the menus, the seed cost's fields, the help lines. */
function renderRest(p: Panel) {
  const { store } = p;
  const { policy, cost, fixed, perByte, seedParams, order, policyHelp, orderHelp, objective, objectiveHelp } = p.el;
  const { margin, marginPick } = p.el;
  const s = store.get().settings;
  const pols = store.get().engine?.policies ?? [];
  const want = [...pols.map((name, i) => [name, i === 0 ? `${name} (default)` : name])];
  if (policy.options.length !== want.length || [...policy.options].some((o, i) => o.value !== want[i][0])) {
    policy.replaceChildren(...want.map(([v, l]) => h('option', { value: v }, l)));
  }
  policy.value = s.policy && pols.includes(s.policy) ? s.policy : (pols[0] ?? '');
  cost.value = s.costModel;
  if (document.activeElement !== fixed) fixed.value = String(s.fixedLatency);
  if (document.activeElement !== perByte) perByte.value = String(s.cyclesPerByte);
  seedParams.style.display = s.costModel === 'seed' ? '' : 'none';
  renderOrders(p, store.get().engine?.orders ?? NO_ORDERS);
  order.value = s.orderSource;
  const pol = policy.value;
  policyHelp.replaceChildren(h('strong', {}, `${pol}: `), policyText(pol));
  const info = store.get().graphInfo;
  const hasOrder = info?.json ? info.hasOrder : (store.get().view?.graphHasOrder ?? true);
  const chosen = p.orderSources.find((o) => o.name === order.value);
  orderHelp.replaceChildren(
    h('strong', {}, chosen ? `${chosen.title}: ` : 'Order: '),
    order.value === ORDER_FILE
      ? 'the node ids of the order file, in its order.'
      : `${chosen?.description ?? ''}${chosen === p.orderSources[0] && !hasOrder ? ' This graph has no "Order".' : ''}`,
  );
  renderEffort(p, s.effort);
  objective.value = s.objective;
  objectiveHelp.hidden = s.objective === 'bytes'; // (the select's title has it always)
  marginPick.hidden = s.objective === 'bytes';
  if (document.activeElement !== margin) margin.value = String(s.margin);
  p.el.orderInfo.textContent =
    s.orderSource === 'file' && s.orderFile ? `${s.orderFile.name}: ${s.orderFile.ids.length} ids` : '';
}

/** The preset menu and the new memory's fields. */
function attachCapacityInput(p: Panel) {
  const { store, notify } = p;
  const { preset, newType, newCap, addBtn } = p.el;
  const set = (patch: Partial<Settings>) => store.setSettings(patch);
  preset.addEventListener('change', () => {
    const pr = PRESETS[preset.value];
    if (pr) set({ capacities: copyCapacities(pr) });
    preset.value = '';
  });
  const add = () => {
    const t = newType.value.trim();
    const problem = capacityProblem(newCap.value);
    if (!/^[A-Za-z_][\w]*$/.test(t) || t.length > LIMITS.memoryNameChars)
      return notify('A memory type is a name like L1 or UB.', 'warn');
    if (problem) return notify(`The new capacity: ${problem}.`, 'warn');
    if (
      store.get().settings.capacities.length >= LIMITS.capacityRows &&
      !store.get().settings.capacities.some(([k]) => k === t)
    )
      return notify(`The page takes at most ${LIMITS.capacityRows} memories.`, 'warn');
    const v = Number(newCap.value.trim());
    const caps = store.get().settings.capacities.filter(([k]) => k !== t);
    set({ capacities: [...caps, [t, v]] });
    newType.value = '';
    newCap.value = '';
  };
  addBtn.addEventListener('click', add);
  newCap.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') add();
  });
}

/** Policy, cost model, its two numbers, objective. */
function attachPlanInput(p: Panel) {
  const { store } = p;
  const { policy, cost, objective, fixed, perByte, margin } = p.el;
  const set = (patch: Partial<Settings>) => store.setSettings(patch);
  policy.addEventListener('change', () =>
    set({ policy: policy.value === store.get().engine?.policies[0] ? '' : policy.value }),
  );
  cost.addEventListener('change', () => set({ costModel: cost.value as CostModel }));
  objective.addEventListener('change', () => set({ objective: objective.value as Objective }));
  const numIn = (el: HTMLInputElement, key: 'fixedLatency' | 'cyclesPerByte' | 'margin') =>
    el.addEventListener('input', () => {
      const v = Number(el.value);
      const max = LIMITS[key];
      const ok = el.value.trim() !== '' && Number.isInteger(v) && v >= 0 && v <= max;
      el.classList.toggle('invalid', !ok);
      el.setAttribute('aria-invalid', String(!ok));
      setFieldError(
        el.dataset.testid!,
        ok
          ? null
          : `The ${key} field: ${el.value.trim() === '' ? 'the field is empty' : `"${el.value.slice(0, 20)}" is not a whole number from 0 to ${fmtLimit(max)}`}.`,
      );
      if (ok) set({ [key]: v });
    });
  numIn(fixed, 'fixedLatency');
  numIn(perByte, 'cyclesPerByte');
  numIn(margin, 'margin');
  attachEffortInput(p);
  attachOrderInput(p);
}

/** The effort menu and its number field. */
function attachEffortInput(p: Panel) {
  const { store } = p;
  const { effort, effortNumber } = p.el;
  const set = (patch: Partial<Settings>) => store.setSettings(patch);
  effort.addEventListener('change', () => {
    const v = effort.value;
    setFieldError('effort-number', null);
    effortNumber.classList.remove('invalid');
    effortNumber.setAttribute('aria-invalid', 'false');
    if (v === EFFORT_NUMBER) {
      effortNumber.hidden = false;
      if (effortNumber.value.trim() === '')
        effortNumber.value = String(store.get().settings.effort ?? EFFORT_PRESETS[0][1]);
      effortNumber.focus();
      effortNumber.select();
      return;
    }
    set({ effort: v === '' ? null : EFFORT_PRESETS.find(([name]) => name === v)![1] });
  });
  effortNumber.addEventListener('input', () => {
    const t = effortNumber.value.trim();
    const n = Number(t);
    const ok = t !== '' && Number.isInteger(n) && n >= 0 && n <= LIMITS.effort;
    effortNumber.classList.toggle('invalid', !ok);
    effortNumber.setAttribute('aria-invalid', String(!ok));
    setFieldError(
      'effort-number',
      ok
        ? null
        : `The effort field: ${t === '' ? 'the field is empty' : `"${t.slice(0, 20)}" is not a whole number from 0 to ${fmtLimit(LIMITS.effort)}`}.`,
    );
    if (ok) set({ effort: n });
  });
  effortNumber.addEventListener('blur', () => renderEffort(p, store.get().settings.effort));
}

/** The order menu and the order file it may ask for. */
function attachOrderInput(p: Panel) {
  const { store, notify } = p;
  const { order, orderInput } = p.el;
  const set = (patch: Partial<Settings>) => store.setSettings(patch);
  order.addEventListener('change', () => {
    const v = order.value;
    if (v === ORDER_FILE) {
      orderInput.value = '';
      orderInput.click();
      renderRest(p); // the select shows the current source until a file is read
      return;
    }
    set({ orderSource: v });
  });
  orderInput.addEventListener('change', async () => {
    const f = orderInput.files?.[0];
    if (!f) return;
    try {
      const ids = parseOrderFile(await f.text());
      set({ orderSource: 'file', orderFile: { name: f.name, ids } });
    } catch (e) {
      notify(`${f.name}: ${(e as Error).message}`, 'error');
    }
  });
}

function onStoreChange(p: Panel, s: State, prev: State) {
  const { capList, errorList } = p.el;
  if (s.fieldErrors !== prev.fieldErrors) {
    errorList.replaceChildren(...s.fieldErrors.map((e) => h('div', {}, e.message)));
  }
  if (s.graphInfo !== prev.graphInfo) renderOrigin(p);
  if (s.settings.capacities !== prev.settings.capacities) {
    // keep focus while typing: only rebuild when the list of types changed
    const a = s.settings.capacities.map((e) => e[0]).join();
    const b = prev.settings.capacities.map((e) => e[0]).join();
    const focused = capList.contains(document.activeElement);
    if (a !== b || !focused) renderCaps(p);
    else renderOrigin(p);
  }
  if (
    s.settings !== prev.settings ||
    s.engine !== prev.engine ||
    s.view?.graphHasOrder !== prev.view?.graphHasOrder ||
    s.graphInfo !== prev.graphInfo
  )
    renderRest(p);
}
