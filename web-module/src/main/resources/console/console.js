// The operators' console: a script layer over the REST API. Every element is made with DOM calls and every value
// from the server goes in as text, so nothing an agent's author or a user wrote can become markup or script.
// The session cookie is HttpOnly; each state-changing call fetches a single-use CSRF token first.

const main = document.getElementById('main');
const nav = document.getElementById('nav');
const who = document.getElementById('who');
const flashBox = document.getElementById('flash');
let me = null;

// ---- DOM and API helpers -------------------------------------------------------------------------------------

function h(tag, attrs, ...children) {
    const el = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
        if (value === null || value === undefined || value === false) continue;
        if (key.startsWith('on')) el.addEventListener(key.slice(2), value);
        else if (key === 'class') el.className = value;
        else if (key === 'dataset') Object.assign(el.dataset, value);
        else if (value === true) el.setAttribute(key, '');
        else el.setAttribute(key, String(value));
    }
    for (const child of children.flat(Infinity)) {
        if (child === null || child === undefined || child === false) continue;
        el.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return el;
}

class ApiError extends Error {
    constructor(status, message, details) {
        super(message);
        this.status = status;
        this.details = details;
    }
}

function query(params) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(params || {})) {
        if (v !== null && v !== undefined && v !== '') q.set(k, v);
    }
    const s = q.toString();
    return s ? '?' + s : '';
}

async function api(method, path, { params, body } = {}) {
    const headers = { Accept: 'application/json' };
    if (method !== 'GET') {
        const token = await fetch('/csrf-token', { credentials: 'same-origin' }).then(r => r.json());
        headers['X-CSRF-Token'] = token.csrf_token;
    }
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetch(path + query(params), {
        method, headers, credentials: 'same-origin', body: body === undefined ? undefined : JSON.stringify(body)
    });
    const type = response.headers.get('Content-Type') || '';
    const data = response.status === 204 ? null
        : type.includes('json') ? await response.json().catch(() => null) : await response.text();
    if (!response.ok) {
        const error = data && data.error ? data.error : {};
        if (response.status === 401 && me) {
            me = null;
            signIn('Your session has ended: sign in again.');
        }
        throw new ApiError(response.status, error.message || response.statusText || 'Request failed',
            error.details);
    }
    return data;
}

function flash(message, isError) {
    flashBox.className = isError ? 'error' : '';
    flashBox.textContent = message;
}

function failed(e) {
    flash(e instanceof ApiError ? `${e.message}${e.details ? ' (' + e.details + ')' : ''}` : String(e), true);
}

/** Runs a state-changing call, reports the outcome (its own message, else the label), then re-renders. */
async function act(label, call) {
    try {
        const message = await call();
        flash(typeof message === 'string' ? message : label);
        await route();
    } catch (e) {
        failed(e);
    }
}

function when(value) {
    return value ? new Date(value).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '—';
}

function text(value) {
    if (value === null || value === undefined || value === '') return '—';
    if (typeof value === 'object') return JSON.stringify(value);
    return String(value);
}

function details(pairs) {
    return h('dl', {}, pairs.map(([k, v]) => [h('dt', {}, k), h('dd', {}, v instanceof Node ? v : text(v))]));
}

function field(label, input) {
    const id = 'f-' + Math.random().toString(36).slice(2);
    input.id = id;
    return h('span', {}, h('label', { for: id }, label), input);
}

function button(label, onclick, cls, name) {
    return h('button', { type: 'button', class: cls, name, onclick }, label);
}

function can(permission) {
    return !!me && me.permissions.includes(permission);
}

function isAdmin() {
    return !!me && me.roles.includes('admin');
}

// ---- Routing -------------------------------------------------------------------------------------------------

const routes = [];

function screen(pattern, nav, render) {
    routes.push({ pattern, nav, render });
}

function currentHash() {
    const hash = location.hash.replace(/^#/, '') || '/';
    const [path, search] = hash.split('?');
    return { path, params: new URLSearchParams(search || '') };
}

function go(path, params) {
    const target = '#' + path + query(params);
    if (location.hash === target) route(); else location.hash = target;
}

async function route() {
    if (!me) return;
    const { path, params } = currentHash();
    for (const r of routes) {
        const match = path.match(r.pattern);
        if (match) {
            for (const a of nav.querySelectorAll('a')) a.classList.toggle('active', a.dataset.nav === r.nav);
            try {
                const view = await r.render(params, ...match.slice(1).map(decodeURIComponent));
                main.replaceChildren(view);
            } catch (e) {
                main.replaceChildren(h('section', { class: 'panel' }, h('h1', {}, 'Cannot show this screen'),
                    h('p', { class: 'error-text' }, e.message)));
                if (!(e instanceof ApiError && e.status === 401)) failed(e);
            }
            return;
        }
    }
    go(firstScreen());
}

function firstScreen() {
    const item = menu().find(m => m.show());
    return item ? item.path : '/none';
}

function menu() {
    return [
        { nav: 'users', label: 'Users', path: '/users', show: () => can('user:read') },
        { nav: 'agents', label: 'Agent review', path: '/agents', show: () => can('agent:review') },
        { nav: 'jobs', label: 'Batch jobs', path: '/jobs', show: isAdmin },
        { nav: 'billing', label: 'Billing', path: '/billing', show: isAdmin },
        { nav: 'system', label: 'System', path: '/system',
          show: () => can('audit:read') || can('key:rotate') || can('alert:read') }
    ];
}

// ---- Lists: search, filters, sorting and paging on the API's list conventions ---------------------------------

/**
 * A list screen. The hash carries page, sort and filters, so a list can be bookmarked and the back button works.
 * columns: [{label, value: item => text|Node, sort: 'field'}]; filters: [{name, label, options?}].
 */
async function listScreen({ title, path, route: screenPath, params, columns, filters = [], sort, href, extra,
                            pageSize = 20, envelope = 'page' }) {
    const state = Object.fromEntries(params.entries());
    const page = Math.max(1, parseInt(state.page || '1', 10) || 1);
    const order = state.sort || sort || '';
    const apiParams = { page, page_size: pageSize, sort: order || undefined };
    for (const f of filters) apiParams[f.name] = state[f.name];
    const data = await api('GET', path, { params: apiParams });
    const items = data.items || data.data || [];
    const total = data.total ?? items.length;

    const inputs = filters.map(f => {
        const input = f.options
            ? h('select', { name: f.name }, h('option', { value: '' }, 'any'),
                f.options.map(o => h('option', { value: o, selected: state[f.name] === o }, o)))
            : h('input', { type: 'search', name: f.name, value: state[f.name] || '', placeholder: f.label });
        return field(f.label, input);
    });
    const filterForm = h('form', { class: 'toolbar', onsubmit: e => {
        e.preventDefault();
        const next = {};
        for (const f of filters) next[f.name] = e.target.elements[f.name].value.trim();
        next.sort = order;
        go(screenPath, next);
    } }, inputs, filters.length ? h('button', { type: 'submit' }, 'Search') : null);

    const sortButton = c => {
        if (!c.sort) return c.label;
        const mark = order === c.sort ? ' ▲' : order === '-' + c.sort ? ' ▼' : '';
        return h('button', { type: 'button', onclick: () =>
            go(screenPath, { ...state, page: 1, sort: order === c.sort ? '-' + c.sort : c.sort }) }, c.label + mark);
    };
    const table = h('table', { class: 'list' },
        h('thead', {}, h('tr', {}, columns.map(c => h('th', {}, sortButton(c))))),
        h('tbody', {}, items.length ? items.map(item => h('tr', {
            class: href ? 'row' : null, onclick: href ? () => go(href(item)) : null
        }, columns.map(c => { const v = c.value(item); return h('td', {}, v instanceof Node ? v : text(v)); })))
            : h('tr', {}, h('td', { colspan: columns.length, class: 'muted' }, 'Nothing here.'))));
    const pages = Math.max(1, Math.ceil(total / pageSize));
    const pager = h('div', { class: 'pager' },
        button('‹ Previous', () => go(screenPath, { ...state, page: page - 1 }), 'secondary', 'previous'),
        h('span', {}, `page ${page} of ${pages} · ${total} in all`),
        button('Next ›', () => go(screenPath, { ...state, page: page + 1 }), 'secondary', 'next'));
    pager.querySelector('[name=previous]').disabled = page <= 1;
    pager.querySelector('[name=next]').disabled = page >= pages;
    return h('div', {}, h('h1', {}, title), extra || null, filters.length ? filterForm : null, table, pager);
}

// ---- Sign-in and the frame ------------------------------------------------------------------------------------

function signIn(message) {
    nav.hidden = true;
    who.replaceChildren();
    const email = h('input', { type: 'email', name: 'email', required: true, autocomplete: 'username' });
    const password = h('input', { type: 'password', name: 'password', required: true,
                                  autocomplete: 'current-password' });
    const error = h('p', { class: 'error-text', id: 'signin-error' }, message || '');
    main.replaceChildren(h('form', { class: 'card signin', id: 'signin', onsubmit: async e => {
        e.preventDefault();
        try {
            await api('POST', '/console/session', { body: { email: email.value, password: password.value } });
            await start();
        } catch (err) {
            error.textContent = err.message;
        }
    } }, h('h1', {}, 'Sign in'), field('E-mail', email), field('Password', password), error,
        h('div', { class: 'actions' }, h('button', { type: 'submit' }, 'Sign in'))));
}

async function signOut() {
    try {
        await api('POST', '/logout', { body: {} });
    } catch (e) {
        // the session may have ended already; the sign-in form follows either way
    }
    me = null;
    flash('');
    signIn('Signed out.');
}

async function start() {
    try {
        me = await api('GET', '/me/permissions');
    } catch (e) {
        me = null;
        signIn();
        return;
    }
    nav.replaceChildren(...menu().filter(m => m.show())
        .map(m => h('a', { href: '#' + m.path, dataset: { nav: m.nav } }, m.label)));
    nav.hidden = false;
    who.replaceChildren(h('span', {}, me.user.username), button('Sign out', signOut, 'secondary', 'signout'));
    flash('');
    await route();
}

screen(/^\/none$/, '', async () => h('section', { class: 'panel' }, h('h1', {}, 'Nothing to show'),
    h('p', {}, 'This account holds none of the permissions a console screen needs.')));

window.addEventListener('hashchange', () => { flash(''); route(); });

// ---- Users ----------------------------------------------------------------------------------------------------

function statusTag(active) {
    return h('span', { class: 'tag ' + (active ? 'ok' : 'bad') }, active ? 'active' : 'inactive');
}

screen(/^\/users$/, 'users', params => listScreen({
    title: 'Users', path: '/admin/users', route: '/users', params, sort: '-created_at',
    filters: [{ name: 'search', label: 'Name or e-mail' },
              { name: 'role', label: 'Role', options: ['user', 'pro_user', 'developer', 'admin'] },
              { name: 'is_active', label: 'Active', options: ['true', 'false'] }],
    columns: [{ label: 'Id', value: u => u.id, sort: 'id' },
              { label: 'Username', value: u => u.username, sort: 'username' },
              { label: 'E-mail', value: u => u.email, sort: 'email' },
              { label: 'Roles', value: u => u.roles.join(', ') },
              { label: 'State', value: u => statusTag(u.is_active) },
              { label: 'Created', value: u => when(u.created_at), sort: 'created_at' }],
    href: u => '/users/' + u.id
}));

screen(/^\/users\/(\d+)$/, 'users', async (params, id) => {
    const user = await api('GET', '/admin/users/' + id);
    const audit = can('audit:read')
        ? await api('GET', '/admin/audit-logs', { params: { user_id: id, page_size: 10 } }) : null;
    const roles = can('role:read') ? (await api('GET', '/admin/roles')).items.map(r => r.name) : [];

    const roleList = h('ul', { id: 'roles' }, user.roles.map(role => h('li', {}, role, ' ',
        can('role:assign') && user.roles.length > 1 ? button('Revoke', () => act(`Role ${role} revoked`,
            () => api('DELETE', `/admin/users/${id}/roles/${encodeURIComponent(role)}`)), 'secondary', 'revoke-' + role)
            : null)));
    const grantSelect = h('select', { name: 'role' }, roles.filter(r => !user.roles.includes(r))
        .map(r => h('option', { value: r }, r)));
    const grant = can('role:assign') && grantSelect.options.length ? h('div', { class: 'actions' },
        field('Grant a role', grantSelect),
        button('Grant', () => act(`Role ${grantSelect.value} granted`,
            () => api('POST', `/admin/users/${id}/roles`, { body: { role: grantSelect.value } })), null, 'grant'))
        : null;

    const reason = h('input', { type: 'text', name: 'reason', maxlength: 200, placeholder: 'why (kept with the account)' });
    const state = can('user:update') ? h('div', { class: 'actions' },
        user.deactivated_at
            ? button('Reactivate', () => act('User reactivated',
                () => api('PATCH', '/admin/users/' + id, { body: { is_active: true } })), null, 'reactivate')
            : [field('Reason', reason), button('Deactivate', () => {
                if (!reason.value.trim()) { flash('Give a reason to deactivate a user.', true); return; }
                return act('User deactivated: their sessions and tokens have ended',
                    () => api('PATCH', '/admin/users/' + id, { body: { is_active: false, reason: reason.value.trim() } }));
            }, 'danger', 'deactivate')],
        button('End sessions', () => act('All sessions and tokens of the user have ended',
            () => api('DELETE', `/admin/users/${id}/sessions`)), 'secondary', 'end-sessions')) : null;

    return h('div', {}, h('h1', {}, 'User ', user.username),
        h('div', { class: 'columns' },
            h('section', { id: 'user' }, details([
                ['Id', user.id], ['E-mail', user.email], ['State', statusTag(user.is_active)],
                ['E-mail verified', when(user.email_verified_at)], ['Created', when(user.created_at)],
                ['Deactivated', when(user.deactivated_at)], ['Deactivated by', user.deactivated_by],
                ['Reason', user.deactivation_reason]]), state),
            h('section', {}, h('h2', {}, 'Roles'), roleList, grant,
                isAdmin() ? h('p', {}, h('a', { href: '#/billing?user_id=' + id }, 'Balance and ledger')) : null)),
        audit ? h('section', {}, h('h2', {}, 'Recent audit events'), auditTable(audit.items)) : null);
});

function auditTable(items) {
    return h('table', { class: 'list' }, h('thead', {}, h('tr', {},
        ['When', 'Action', 'User', 'Actor', 'Address', 'Success'].map(t => h('th', {}, t)))),
        h('tbody', {}, items.length ? items.map(a => h('tr', {}, h('td', {}, when(a.created_at)), h('td', {}, a.action),
            h('td', {}, text(a.user_id)), h('td', {}, text(a.actor_id)), h('td', {}, text(a.ip_address)),
            h('td', {}, a.success ? 'yes' : 'no')))
            : h('tr', {}, h('td', { colspan: 6, class: 'muted' }, 'No events.'))));
}

// ---- Agent review ---------------------------------------------------------------------------------------------

function checkSummary(checks) {
    const failed = (checks || []).filter(c => c.status === 'failed').map(c => c.name);
    return failed.length ? h('span', { class: 'tag bad' }, 'failed: ' + failed.join(', '))
        : h('span', { class: 'tag ok' }, 'passed');
}

screen(/^\/agents$/, 'agents', params => {
    if (!params.has('status')) params.set('status', 'pending_review');
    return listScreen({
        title: 'Agent review queue', path: '/v1/admin/submissions', route: '/agents', params, sort: 'review_due_at',
        filters: [{ name: 'search', label: 'Agent name' },
                  { name: 'status', label: 'Review state',
                    options: ['pending_review', 'approved', 'rejected', 'superseded'] }],
        columns: [{ label: 'Agent', value: s => s.name },
                  { label: 'Version', value: s => s.version },
                  { label: 'State', value: s => s.status },
                  { label: 'Smoke tests', value: s => s.smoke_tests.status },
                  { label: 'Checks', value: s => checkSummary(s.checks) },
                  { label: 'Review due', value: s => when(s.estimated_review), sort: 'review_due_at' },
                  { label: 'Submitted', value: s => when(s.created_at), sort: 'created_at' }],
        href: s => '/agents/' + s.agent_id
    });
});

function checksTable(checks) {
    return h('table', { class: 'list checks' }, h('thead', {}, h('tr', {},
        ['Check', 'Result', 'Summary', 'Findings'].map(t => h('th', {}, t)))),
        h('tbody', {}, (checks || []).map(c => h('tr', {}, h('td', {}, c.name),
            h('td', {}, h('span', { class: 'tag ' + (c.status === 'failed' ? 'bad' : c.status === 'passed' ? 'ok' : '') },
                c.status)),
            h('td', {}, c.summary),
            h('td', {}, c.findings.length ? h('ul', {}, c.findings.map(f =>
                h('li', {}, h('span', { class: 'tag ' + (f.severity === 'high' ? 'bad' : '') }, f.severity), ' ',
                    f.pointer ? h('code', {}, f.pointer) : null, ' ', f.message))) : '—')))));
}

screen(/^\/agents\/([0-9a-fA-F-]+)$/, 'agents', async (params, id) => {
    const agent = await api('GET', '/v1/agents/' + id);
    const versions = await api('GET', '/v1/admin/submissions', { params: { agent_id: id, page_size: 100, sort: '-created_at' } });
    const history = await api('GET', `/v1/agents/${id}/history`, { params: { page_size: 20 } });
    const reports = await api('GET', `/v1/admin/agents/${id}/reports`, { params: { page_size: 20 } });
    const pending = versions.items.find(v => v.status === 'pending_review');
    const shown = pending || versions.items[0];

    const note = h('input', { type: 'text', name: 'note', maxlength: 4000, placeholder: 'note (optional)' });
    const reasons = h('textarea', { name: 'reasons', rows: 3, cols: 50, placeholder: 'one reason per line' });
    const review = pending ? h('section', { id: 'review' }, h('h2', {}, `Review version ${pending.version}`),
        h('div', { class: 'actions' }, field('Note', note), button('Approve', () => act('Approved',
            () => api('POST', `/v1/admin/agents/${id}/approve`, { body: note.value.trim() ? { note: note.value.trim() } : {} })),
            null, 'approve')),
        h('div', { class: 'actions' }, field('Reasons to reject', reasons), button('Reject', () => {
            const list = reasons.value.split('\n').map(r => r.trim()).filter(r => r);
            if (!list.length) { flash('Give at least one reason to reject.', true); return; }
            return act('Rejected', () => api('POST', `/v1/admin/agents/${id}/reject`, { body: { reasons: list } }));
        }, 'danger', 'reject'))) : null;

    const takedownReason = h('select', { name: 'takedown_reason' },
        ['description_seriously_wrong', 'hidden_charging', 'copying_another_developer']
            .map(r => h('option', { value: r }, r)));
    const takedownDetails = h('input', { type: 'text', name: 'takedown_details', maxlength: 4000 });
    const trustLevel = h('select', { name: 'trust_level' }, ['unverified', 'community', 'official']
        .map(l => h('option', { value: l, selected: l === agent.trust_level }, l)));
    const trustNote = h('input', { type: 'text', name: 'trust_note', maxlength: 3000, placeholder: 'audit note' });
    const moves = h('section', {}, h('h2', {}, 'Moves'),
        agent.status === 'active' ? h('div', { class: 'actions' }, field('Take down for', takedownReason),
            field('Details', takedownDetails), button('Take down', () => act('Taken down',
                () => api('POST', `/v1/admin/agents/${id}/takedown`,
                    { body: { reason: takedownReason.value, details: takedownDetails.value.trim() } })), 'danger', 'takedown'))
            : null,
        can('agent:trust') ? h('div', { class: 'actions' }, field('Trust after audit', trustLevel),
            field('Note', trustNote), button('Set trust', () => act('Trust set',
                () => api('POST', `/v1/admin/agents/${id}/trust`,
                    { body: { level: trustLevel.value, note: trustNote.value.trim() } })), null, 'trust')) : null,
        h('div', { class: 'actions' }, button('Rescan', async () => {
            try {
                const result = await api('POST', `/v1/admin/agents/${id}/rescan`);
                flash(result.taken_down ? 'Rescanned: a high finding took the agent down' : 'Rescanned');
                document.getElementById('rescan').replaceChildren(h('h2', {}, 'Rescan of ' + result.version),
                    checksTable(result.checks));
            } catch (e) { failed(e); }
        }, 'secondary', 'rescan')), h('div', { id: 'rescan' }));

    return h('div', {}, h('h1', {}, agent.display_name, ' ', h('span', { class: 'muted' }, agent.name)),
        h('div', { class: 'columns' },
            h('div', {},
                h('section', { id: 'agent' }, details([['Id', agent.id], ['Status', agent.status],
                    ['Serving version', agent.version], ['Author', `${text(agent.author_name)} (#${agent.author_id})`],
                    ['Trust', agent.trust_level], ['Category', agent.category], ['Quality', agent.quality_score],
                    ['Calls', agent.total_calls], ['Rating', `${agent.avg_rating_exact} (${agent.review_count})`],
                    ['Description', agent.description]])),
                h('section', {}, h('h2', {}, 'Card of ', shown ? 'version ' + shown.version : 'the agent'),
                    h('pre', { id: 'card' }, JSON.stringify(agent.agent_card, null, 2)))),
            h('div', {}, review,
                shown ? h('section', { id: 'checks' }, h('h2', {}, `Checks of ${shown.version} (${shown.status})`),
                    h('p', {}, 'Smoke tests: ', h('b', {}, shown.smoke_tests.status), ' ',
                        text(shown.smoke_tests.detail)), checksTable(shown.checks)) : null,
                moves)),
        h('section', {}, h('h2', {}, 'History'), h('table', { class: 'list' }, h('thead', {}, h('tr', {},
            ['When', 'Action', 'From', 'To', 'Version', 'Actor', 'Reason'].map(t => h('th', {}, t)))),
            h('tbody', {}, history.items.map(e => h('tr', {}, [when(e.created_at), e.action, text(e.from_status),
                e.to_status, e.version, e.actor_id === 0 ? 'platform' : e.actor_id,
                [e.reason_code, e.reason].filter(x => x).join(': ') || '—'].map(v => h('td', {}, String(v)))))))),
        h('section', {}, h('h2', {}, `Security reports (${reports.total})`), reports.items.length
            ? h('ul', {}, reports.items.map(r => h('li', {}, when(r.created_at), ' · ', r.reason, ' · user ', r.user_id,
                ': ', r.details)))
            : h('p', { class: 'muted' }, 'None.')));
});

// ---- Batch jobs -----------------------------------------------------------------------------------------------

function download(label, href, name) {
    return h('a', { href, download: '', class: 'download', name }, label);
}

function previousMonth() {
    const now = new Date();
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
    return d.toISOString().slice(0, 7);
}

function yesterday() {
    return new Date(Date.now() - 86400000).toISOString().slice(0, 10);
}

function executionStatus(e) {
    const cls = e.status === 'COMPLETED' ? 'ok' : ['FAILED', 'STOPPED', 'ABANDONED'].includes(e.status) ? 'bad' : '';
    return h('span', { class: 'tag ' + cls }, e.status);
}

// a paused schedule (atrium.batch.schedules.paused) is set on the server, not here: the console only shows it
function scheduleOf(job) {
    return job.schedule_paused
        ? h('span', {}, job.schedule, ' ', h('span', { class: 'tag bad', id: 'paused-' + job.name }, 'paused'))
        : job.schedule;
}

screen(/^\/jobs$/, 'jobs', async () => {
    const jobs = await api('GET', '/admin/batch-jobs');
    return h('div', {}, h('h1', {}, 'Batch jobs'), h('table', { class: 'list', id: 'jobs' },
        h('thead', {}, h('tr', {}, ['Job', 'What it does', 'Schedule', 'Last execution', 'Ended']
            .map(t => h('th', {}, t)))),
        h('tbody', {}, jobs.data.map(j => h('tr', { class: 'row', onclick: () => go('/jobs/' + j.name) },
            h('td', {}, j.name), h('td', {}, j.description), h('td', {}, scheduleOf(j)),
            h('td', {}, j.last_execution ? [executionStatus(j.last_execution), ' #' + j.last_execution.id] : 'never'),
            h('td', {}, when(j.last_execution && j.last_execution.ended_at)))))));
});

function outputs(name) {
    if (name === 'monthly-payout') {
        const month = h('input', { type: 'month', name: 'file_month', value: previousMonth() });
        const link = download('Download the payout file', '', 'payout-file');
        const sync = () => { link.href = `/v1/admin/billing/payout-runs/${month.value}/file`; };
        month.addEventListener('input', sync);
        sync();
        return h('div', { class: 'actions' }, field('Payout file of', month), link);
    }
    if (name === 'daily-marketplace-report' || name === 'daily-usage-report') {
        const date = h('input', { type: 'date', name: 'report_date', value: yesterday() });
        const link = download('Download the report CSV', '', 'report-file');
        const sync = () => {
            link.href = name === 'daily-usage-report' ? `/api/admin/reports/${date.value}.csv`
                : `/v1/admin/billing/reports/${date.value}.csv`;
        };
        date.addEventListener('input', sync);
        sync();
        return h('div', { class: 'actions' }, field('Report of', date), link);
    }
    return null;
}

screen(/^\/jobs\/([a-z0-9-]+)$/, 'jobs', async (params, name) => {
    const job = (await api('GET', '/admin/batch-jobs')).data.find(j => j.name === name);
    if (!job) throw new ApiError(404, 'No batch job ' + name);
    const executions = await api('GET', `/admin/batch-jobs/${name}/executions`, { params: { instances: 20 } });
    const inputs = Object.entries(job.parameters).map(([key, hint]) => {
        const input = h('input', { type: key === 'month' ? 'month' : key === 'date' ? 'date' : 'text', name: key,
            value: key === 'month' ? previousMonth() : key === 'date' ? yesterday() : '' });
        return { key, input, view: field(`${key} (${hint})`, input) };
    });
    const start = h('div', { class: 'actions', id: 'start' }, inputs.map(i => i.view), button('Start', () => act(
        'Started', async () => {
            const started = await api('POST', `/admin/batch-jobs/${name}/executions`,
                { params: Object.fromEntries(inputs.map(i => [i.key, i.input.value])) });
            return 'Started execution #' + started.id;
        }), null, 'start'));

    const rows = executions.data.map(e => h('tr', { dataset: { execution: e.id } },
        h('td', {}, '#' + e.id, e.restart_of ? h('div', { class: 'muted' }, 'restart of #' + e.restart_of) : null),
        h('td', {}, executionStatus(e)), h('td', {}, text(e.exit_status)),
        h('td', {}, when(e.created_at)), h('td', {}, when(e.ended_at)),
        h('td', {}, e.steps.length ? h('ul', {}, e.steps.map(s => h('li', {},
            `${s.name}: ${s.status} · read ${s.read_count}, written ${s.write_count}, commits ${s.commit_count}`))) : '—'),
        h('td', {}, ['STARTING', 'STARTED'].includes(e.status)
            ? button('Stop', () => act('Stopping #' + e.id, () => api('POST', `/admin/batch-executions/${e.id}/stop`)),
                'danger', 'stop')
            : ['FAILED', 'STOPPED'].includes(e.status)
                ? button('Restart', () => act('Restarted #' + e.id,
                    () => api('POST', `/admin/batch-executions/${e.id}/restart`)), null, 'restart') : null)));

    return h('div', {}, h('h1', {}, 'Batch job ', name),
        h('section', {}, details([['What it does', job.description], ['Schedule', scheduleOf(job)]]),
            h('h2', {}, 'Start now'), start, outputs(name)),
        h('section', {}, h('h2', {}, 'Executions'), button('Refresh', () => route(), 'secondary', 'refresh'),
            h('table', { class: 'list', id: 'executions' }, h('thead', {}, h('tr', {},
                ['Execution', 'Status', 'Exit status', 'Created', 'Ended', 'Steps', ''].map(t => h('th', {}, t)))),
                h('tbody', {}, rows.length ? rows
                    : h('tr', {}, h('td', { colspan: 7, class: 'muted' }, 'Never ran.'))))));
});

// ---- Billing --------------------------------------------------------------------------------------------------

function money(value) {
    return value === null || value === undefined ? '—' : Number(value).toFixed(6).replace(/0{1,4}$/, '') + ' USD';
}

screen(/^\/billing$/, 'billing', async params => {
    const userId = params.get('user_id') || '';
    const date = params.get('date') || '';
    const month = params.get('month') || '';
    const parts = [];

    const userInput = h('input', { type: 'number', name: 'user_id', min: 1, value: userId });
    const dateInput = h('input', { type: 'date', name: 'date', value: date || yesterday() });
    const monthInput = h('input', { type: 'month', name: 'month', value: month || previousMonth() });
    const rmonth = params.get('rmonth') || '';
    const reconcileMonth = h('input', { type: 'month', name: 'rmonth', value: rmonth || previousMonth() });
    parts.push(h('div', { class: 'columns' },
        h('form', { class: 'card', id: 'reconcile', onsubmit: e => { e.preventDefault();
            const next = { ...Object.fromEntries(params), date: dateInput.value };
            delete next.rmonth;
            go('/billing', next); } },
            h('h2', {}, 'Reconciliation'), h('div', { class: 'actions' }, field('Day (UTC)', dateInput),
                h('button', { type: 'submit', name: 'reconcile-day' }, 'Reconcile the day')),
            h('div', { class: 'actions' }, field('Month (UTC)', reconcileMonth),
                button('Reconcile the month', () => {
                    const next = { ...Object.fromEntries(params), rmonth: reconcileMonth.value };
                    delete next.date;
                    go('/billing', next);
                }, 'secondary', 'reconcile-month'))),
        h('form', { class: 'card', id: 'ledger', onsubmit: e => { e.preventDefault();
            go('/billing', { ...Object.fromEntries(params), user_id: userInput.value }); } },
            h('h2', {}, 'A user\'s balance and ledger'), field('User id', userInput),
            h('button', { type: 'submit' }, 'Show'))));

    if (date || rmonth) {
        const r = await api('GET', '/v1/admin/billing/reconciliation', { params: date ? { date } : { month: rmonth } });
        parts.push(h('section', { id: 'reconciliation' }, h('h2', {}, 'Reconciliation of ', r.date || r.month, ' ',
            h('span', { class: 'tag ' + (r.agrees ? 'ok' : 'bad') }, r.agrees ? 'agrees' : 'does not agree')),
            details([['Usage records', r.usage_records], ['Charged by usage', money(r.usage_charged)],
                ['Usage entries', r.usage_entries], ['Charged by entries', money(r.entries_charged)],
                ['Unbilled usage', r.unbilled_usage.join(', ') || 'none'],
                ['Unbalanced entries', r.unbalanced_entries],
                ['Accounts off balance', r.accounts_off_balance.join(', ') || 'none'],
                ['Accounts off held', r.accounts_off_held.join(', ') || 'none']])));
    }
    if (userId) {
        const balance = await api('GET', '/v1/admin/billing/balances/' + userId);
        const page = parseInt(params.get('page') || '1', 10) || 1;
        const ledger = await api('GET', '/v1/admin/billing/ledgers/' + userId, { params: { page, page_size: 20 } });
        const amount = h('input', { type: 'number', name: 'amount', min: '1', max: '10000', step: '0.01' });
        const reason = h('input', { type: 'text', name: 'credit_reason', maxlength: 500 });
        const usage = h('input', { type: 'text', name: 'usage_id', placeholder: 'usage record id' });
        const refundReason = h('input', { type: 'text', name: 'refund_reason', maxlength: 500 });
        parts.push(h('section', { id: 'balance' }, h('h2', {}, 'User #', userId),
            details([['Balance', money(balance.balance)], ['Held for calls in flight', money(balance.held)],
                ['Available', money(balance.available)]]),
            h('div', { class: 'actions' }, field('Credit (USD, whole cents)', amount), field('Reason', reason),
                button('Credit', () => act('Credited', () => api('POST', '/v1/admin/billing/credits',
                    { body: { user_id: Number(userId), amount: Number(amount.value), reason: reason.value.trim() } })),
                null, 'credit')),
            h('div', { class: 'actions' }, field('Refund a charged call', usage), field('Reason', refundReason),
                button('Refund', () => act('Refunded', () => api('POST', '/v1/admin/billing/refunds',
                    { body: { usage_id: usage.value.trim(), reason: refundReason.value.trim() } })), null, 'refund')),
            h('h2', {}, `Ledger (${ledger.total} lines)`), h('table', { class: 'list', id: 'ledger-lines' },
                h('thead', {}, h('tr', {}, ['Posted', 'Kind', 'Amount', 'Memo', 'Reference'].map(t => h('th', {}, t)))),
                h('tbody', {}, ledger.items.map(l => h('tr', {}, h('td', {}, when(l.posted_at)), h('td', {}, l.kind),
                    h('td', {}, money(l.amount)), h('td', {}, text(l.memo)), h('td', {}, text(l.reference))))))));
    }

    const runs = h('section', { id: 'payouts' }, h('h2', {}, 'Payout runs'),
        h('div', { class: 'actions' }, field('Month', monthInput),
            button('Show run', () => go('/billing', { ...Object.fromEntries(params), month: monthInput.value }),
                'secondary', 'show-run'),
            button('Start payout run', () => act('Payout run started', async () => {
                const started = await api('POST', '/v1/admin/billing/payout-runs', { body: { month: monthInput.value } });
                params.set('month', started.month);
                // no hashchange: the flash stays, and act() shows the run of that month
                history.replaceState(null, '', '#/billing' + query(Object.fromEntries(params)));
                return `Payout run for ${started.month} started: execution #${started.execution_id}`;
            }), null, 'start-payout')));
    if (month) {
        const run = await api('GET', '/v1/admin/billing/payout-runs/' + month);
        runs.append(details([['Month', run.month], ['Paid', run.paid], ['Carried to a later month', run.carried],
            ['Total paid', money(run.total_paid)],
            ['Payout file', run.file ? download(`atrium-payouts-${run.month}.xml`, run.file, 'payout-file') : 'none yet']]),
        h('table', { class: 'list' }, h('thead', {}, h('tr', {},
            ['Developer', 'Amount', 'Status', 'Method', 'Account'].map(t => h('th', {}, t)))),
            h('tbody', {}, run.payouts.map(p => h('tr', {}, h('td', {}, p.developer_id), h('td', {}, money(p.amount)),
                h('td', {}, p.status), h('td', {}, text(p.method)), h('td', {}, text(p.iban)))))));
    }
    parts.push(runs);
    return h('div', {}, h('h1', {}, 'Billing'), parts);
});

// ---- System, audit log and alerts -----------------------------------------------------------------------------

screen(/^\/system$/, 'system', async () => {
    const health = await fetch('/health', { credentials: 'same-origin' }).then(r => r.json());
    const operations = isAdmin() ? await api('GET', '/admin/operations') : null;
    const keys = can('key:rotate') ? await api('GET', '/admin/keys') : null;
    const sandbox = isAdmin() ? await api('GET', '/admin/sandbox') : null;
    const deprecations = isAdmin() ? await api('GET', '/admin/api-deprecations') : null;
    const part = (name, value) => [name, h('span', { class: 'tag ' + (value === 'ok' ? 'ok' : 'bad') }, value)];
    const yes = value => h('span', { class: 'tag ' + (value ? 'ok' : 'bad') }, value ? 'yes' : 'no');
    const mib = bytes => Math.round(bytes / 1048576 * 100) / 100 + ' MiB';
    const table = (headings, rows) => h('table', { class: 'list' },
        h('thead', {}, h('tr', {}, headings.map(t => h('th', {}, t)))),
        h('tbody', {}, rows.map(row => h('tr', {}, row.map(v => h('td', {}, v instanceof Node ? v : text(v)))))));
    return h('div', {}, h('h1', {}, 'System'),
        h('div', { class: 'columns' },
            h('section', { id: 'health' }, h('h2', {}, 'Health'), details([
                part('Database (' + health.backends.database + ')', health.database),
                part('Key-value store (' + health.backends.redis + ')', health.redis),
                part('Broker', health.broker),
                ...(operations ? [part('Object store (' + operations.object_store.kind + ')',
                    operations.object_store.reachable ? 'ok' : 'error')] : []),
                ['Model provider', health.models], part('Sandbox', health.sandbox)])),
            operations ? h('section', { id: 'queues' }, h('h2', {}, 'Outbox and queues'), details([
                ['Outbox events waiting', operations.outbox_pending],
                ['Broker connected', operations.broker_connected ? 'yes' : 'no'],
                ...operations.queues.map(q => [q.name === 'DLQ' ? 'DLQ (dead letters)' : 'Queue ' + q.name,
                    q.depth === null ? 'unknown' : q.depth + (q.capped ? '+' : '')])])) : null),
        keys ? h('section', { id: 'keys' }, h('h2', {}, 'Signing keys'), h('table', { class: 'list' },
            h('thead', {}, h('tr', {}, ['Key id', 'Algorithm', 'Status', 'Created', 'Retired', 'Dropped after']
                .map(t => h('th', {}, t)))),
            h('tbody', {}, keys.items.map(k => h('tr', {}, [k.kid, k.algorithm, k.status, when(k.created_at),
                when(k.retired_at), when(k.drop_after)].map(v => h('td', {}, v)))))),
            h('div', { class: 'actions' }, ['HS256', 'RS256'].map(alg => button('Rotate ' + alg,
                () => act(alg + ' key rotated', () => api('POST', '/admin/keys/rotate', { body: { algorithm: alg } })),
                'secondary', 'rotate-' + alg)))) : null,
        sandbox ? h('section', { id: 'sandbox' }, h('h2', {}, 'Sandbox'), h('div', { class: 'columns' },
            details([
                part('Status', sandbox.status),
                ...(sandbox.enforcement ? [
                    ['Adapter', sandbox.enforcement.adapter],
                    ['Namespaces', yes(sandbox.enforcement.namespaces)],
                    ['Memory limit', yes(sandbox.enforcement.memory_limit)],
                    ['CPU limit', yes(sandbox.enforcement.cpu_limit)],
                    ['Process limit', yes(sandbox.enforcement.process_limit)],
                    ['Cgroups', sandbox.enforcement.cgroup_version],
                    ['Domain lists', yes(sandbox.enforcement.domain_filtering)],
                    ['Network audit', yes(sandbox.enforcement.network_audit)]] : [])]),
            details([
                ['CPU', sandbox.limits.cpu_percent + ' % of one CPU'],
                ['Processes', sandbox.limits.max_processes],
                ['Output', mib(sandbox.limits.max_stdout_bytes) + ' out, ' + mib(sandbox.limits.max_stderr_bytes)
                    + ' errors'],
                ['Temporary files', mib(sandbox.limits.tmp_bytes)],
                ['Memory, undeclared', sandbox.limits.default_memory_mb + ' MB'],
                ['Time, undeclared', sandbox.limits.default_timeout_s + ' s']])),
            table(['Trust level', 'Network', 'Memory at most', 'Time at most', 'CPU at most'], sandbox.ceilings.map(c =>
                [c.trust_level, c.network ? 'if declared' : 'none', c.memory_mb + ' MB', c.timeout_s + ' s',
                    c.cpu_percent + ' %'])))
            : null,
        deprecations ? h('section', { id: 'deprecations' }, h('h2', {}, 'API deprecations'),
            deprecations.items.length === 0 ? h('p', {}, 'No API version is deprecated.')
                : table(['Prefix', 'Deprecated since', 'Sunset', 'Successor', 'State'], deprecations.items.map(d =>
                    [d.prefix, when(d.since), when(d.sunset), d.successor, d.retired ? 'retired (410)' : 'deprecated'])))
            : null,
        h('p', {}, can('audit:read') ? h('a', { href: '#/audit' }, 'Audit log') : null, ' ',
            can('alert:read') ? h('a', { href: '#/alerts' }, 'Security alerts') : null));
});

screen(/^\/audit$/, 'system', params => listScreen({
    title: 'Audit log', path: '/admin/audit-logs', route: '/audit', params, sort: '-created_at',
    filters: [{ name: 'action', label: 'Action', options: ['register', 'verify_email', 'login', 'logout', 'refresh',
        'password_change', 'password_reset', 'lockout', 'role_grant', 'role_revoke', 'user_delete', 'user_deactivate',
        'user_activate', 'sessions_end', 'key_rotate', 'oauth_login', 'sso_login', 'security_alert',
        'security_alert_ack'] },
              { name: 'user_id', label: 'User id' }, { name: 'actor_id', label: 'Actor id' },
              { name: 'success', label: 'Success', options: ['true', 'false'] }],
    columns: [{ label: 'When', value: a => when(a.created_at), sort: 'created_at' },
              { label: 'Action', value: a => a.action }, { label: 'User', value: a => a.user_id },
              { label: 'Actor', value: a => a.actor_id }, { label: 'Address', value: a => a.ip_address },
              { label: 'Success', value: a => a.success ? 'yes' : 'no' }]
}));

screen(/^\/alerts$/, 'system', params => {
    if (!params.has('status')) params.set('status', 'open');
    return listScreen({
        title: 'Security alerts', path: '/admin/alerts', route: '/alerts', params, sort: '-created_at',
        filters: [{ name: 'status', label: 'Status', options: ['open', 'acknowledged'] },
                  { name: 'kind', label: 'Kind', options: ['success_rate', 'failures_per_address', 'refresh_frequency',
                      'refresh_token_two_addresses', 'location_change', 'password_reset_frequency', 'agent_incident',
                      'agent_output_personal_data'] },
                  { name: 'subject', label: 'Subject (user:ID, address:IP, agent:ID)' }],
        columns: [{ label: 'First seen', value: a => when(a.first_seen), sort: 'created_at' },
                  { label: 'Last seen', value: a => when(a.last_seen) },
                  { label: 'Kind', value: a => a.kind }, { label: 'Subject', value: a => a.subject },
                  { label: 'Count', value: a => a.count }, { label: 'Details', value: a => a.details },
                  { label: 'Status', value: a => a.status === 'open' && can('alert:ack')
                      ? button('Acknowledge', e => { e.stopPropagation();
                          act('Acknowledged', () => api('POST', `/admin/alerts/${a.id}/ack`)); }, 'secondary', 'ack')
                      : a.status }]
    });
});

start();
