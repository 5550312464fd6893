-- graft: a thin Neovim client over `graft serve`, the language server that
-- applies the edit blocks agents write (SEARCH/REPLACE, unified diffs, ...).
-- Works on Neovim 0.7.2 and current releases: every API that changed between
-- them is feature-detected here.

local M = {}

-- clone returns the root of the repository the plugin is in (a plugin
-- manager's clone of graft, whose editors/nvim is the plugin), or nil when
-- the plugin is not in one.
function M.clone()
  local here = debug.getinfo(1, 'S').source:gsub('^@', '')
  -- editors/nvim/lua/graft/init.lua
  local root = vim.fn.fnamemodify(here, ':p:h:h:h:h:h')
  if vim.fn.filereadable(root .. '/go.mod') == 1 and vim.fn.isdirectory(root .. '/cmd/graft') == 1 then
    return root
  end
  return nil
end

-- default_cmd is the server's command line when setup() is given none: the
-- binary the documented install builds in the plugin's clone (bin/graft,
-- the server of the plugin's own version), else graft on $PATH.
local function default_cmd()
  local root = M.clone()
  if root and vim.fn.executable(root .. '/bin/graft') == 1 then
    return { root .. '/bin/graft', 'serve' }
  end
  return { 'graft', 'serve' }
end

local defaults = {
  -- The server's command line: see default_cmd.
  cmd = default_cmd(),
  -- Files or directories whose presence marks a workspace root.
  root_markers = { '.git' },
  -- Sent as initializationOptions (threshold, logLevel, answerLanguages).
  init_options = vim.empty_dict(),
  -- Filetypes attached besides normal file buffers (answer buffers may be
  -- scratch buffers).
  answer_filetypes = { 'markdown' },
  -- Open the quickfix window when blocks fail.
  open_quickfix = true,
  -- Mappings made only when set: true for the hunk mappings of :help
  -- graft-mappings, or a table { accept = '<leader>ga', preview = ..., ... }.
  mappings = {},
  -- Show the server's code lenses (Apply / Preview above each block of an
  -- answer, Apply / Dismiss above each suggestion); run one with
  -- vim.lsp.codelens.run().
  codelens = true,
  -- Client capabilities merged over Neovim's own, as the server is told
  -- them, e.g. { workspace = { didChangeWatchedFiles = {
  -- dynamicRegistration = true } } } (0.9+) for the server to follow the
  -- files an answer names on the disk.
  capabilities = nil,
  -- How long the synchronous helpers wait for the server, in milliseconds.
  timeout = 10000,
}

M.config = vim.deepcopy(defaults)

-- clients maps a root directory to its client id.
local clients = {}
-- start_failed holds the command lines that did not start, said once each.
local start_failed = {}

-- last holds the last reply of each command: last[kind] = {err, result, seq}
-- (kind: apply, preview, suggest, suggestions), seq counting the replies.
M.last = {}

-- vim.uv is 0.10's name for vim.loop.
local uv = vim.uv or vim.loop

local function notify(msg, level)
  vim.notify('graft: ' .. msg, level or vim.log.levels.INFO)
end

-- say_start_failed says once per command line that it cannot start, and
-- why, in one line: after the autocommand or command that tried to start
-- it has run, and as a warning, not an error, which Neovim would wrap in
-- "Error detected while processing" (and a prompt, at start-up), and which
-- in an autocommand aborts the :edit that opened the file (0.10+).
local function say_start_failed(cmd, why)
  local what = type(cmd) == 'table' and table.concat(cmd, ' ') or tostring(cmd)
  if start_failed[what] then
    return
  end
  start_failed[what] = true
  vim.schedule(function()
    notify(why .. ': run :checkhealth graft for the fix', vim.log.levels.WARN)
  end)
end

-- missing_binary returns why cmd cannot start when its program is not
-- there (not on $PATH, or no executable file), nil otherwise: Neovim's
-- own client would try, and say so, for every buffer opened.
local function missing_binary(cmd)
  local exe = type(cmd) == 'table' and cmd[1] or nil
  if type(exe) ~= 'string' or vim.fn.executable(exe) == 1 then
    return nil
  end
  return 'graft binary not found: ' .. exe .. ' is ' .. (exe:find('/') and 'not an executable file' or 'not on $PATH')
end

-- Feature detection.
local has_start = vim.lsp.start ~= nil

local function get_clients(filter)
  if vim.lsp.get_clients then
    return vim.lsp.get_clients(filter)
  end
  local all = vim.lsp.get_active_clients()
  if not filter then
    return all
  end
  local out = {}
  for _, c in ipairs(all) do
    if (not filter.name or c.name == filter.name) and (not filter.id or c.id == filter.id) then
      if not filter.bufnr or vim.lsp.buf_is_attached(filter.bufnr, c.id) then
        table.insert(out, c)
      end
    end
  end
  return out
end

-- Neovim 0.11 made the client's functions methods (client:request()), and
-- vim.lsp.start({attach = false}) replaced vim.lsp.start_client().
local has_methods = vim.fn.has('nvim-0.11') == 1

local function request(client, method, params, handler, bufnr)
  if has_methods then
    return client:request(method, params, handler, bufnr)
  end
  return client.request(method, params, handler, bufnr)
end

local function is_stopped(client)
  if has_methods then
    return client:is_stopped()
  end
  return client.is_stopped and client.is_stopped()
end

M._is_stopped = is_stopped

-- log_path returns the client's log file: vim.lsp.get_log_path() is
-- deprecated in 0.12 for vim.lsp.log.get_filename(), there since 0.5.
function M.log_path()
  local ok, log = pcall(require, 'vim.lsp.log')
  if ok and log.get_filename then
    return log.get_filename()
  end
  return vim.lsp.get_log_path()
end

local function create_command(name, fn, opts)
  vim.api.nvim_create_user_command(name, fn, opts or {})
end

local function dirname(path)
  return vim.fn.fnamemodify(path, ':h')
end

-- find_root walks up from dir to the first directory holding a root marker.
function M.find_root(dir)
  dir = vim.fn.fnamemodify(dir, ':p'):gsub('/$', '')
  if dir == '' then
    dir = '/'
  end
  while true do
    for _, marker in ipairs(M.config.root_markers) do
      if uv.fs_stat(dir .. '/' .. marker) then
        return dir
      end
    end
    local parent = dirname(dir)
    if parent == dir then
      return nil
    end
    dir = parent
  end
end

-- root_of returns the root of a buffer: found from its file, else from the
-- current directory, else the current directory itself.
local function root_of(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr)
  local cwd = uv.cwd()
  if name ~= '' and not name:match('^%a+://') then
    local root = M.find_root(dirname(name))
    if root then
      return root
    end
  end
  return M.find_root(cwd) or cwd
end

-- Answers in unnamed buffers.
--
-- Neovim's LSP client names a document by its buffer's name: a buffer with
-- none is "file://" to the server, one document for every unnamed buffer,
-- and the diagnostics sent back for it go to a new buffer named "/". An
-- answer pasted into an unnamed buffer (:vnew, :set ft=markdown) is named
-- graft://answer/N (N its buffer number), as other plugins name their
-- buffers that are no file (fugitive://, oil://): Neovim gives that name
-- to the server as the document's URI, which the server takes for an
-- answer that is no file. The buffer stays a normal one ('buftype'
-- empty): Neovim still asks before it is abandoned unsaved. It has no file
-- to write: :write says so, and :write {file} (or :saveas) writes the file
-- and names the buffer after it, as Neovim does for an unnamed buffer.

local answer_prefix = 'graft://answer/'

local function is_answer_name(name)
  return name:sub(1, #answer_prefix) == answer_prefix
end

local function is_answer_filetype(ft)
  return vim.tbl_contains(M.config.answer_filetypes, ft)
end

-- notify_client sends a notification to client.
local function notify_client(client, method, params)
  if has_methods then
    return client:notify(method, params)
  end
  return client.notify(method, params)
end

-- full_text returns the text of bufnr as Neovim's client sends it.
local function full_text(bufnr)
  if vim.lsp._buf_get_full_text then
    return vim.lsp._buf_get_full_text(bufnr)
  end
  local text = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, true), '\n')
  if vim.bo[bufnr].eol then
    text = text .. '\n'
  end
  return text
end

-- buffer_named returns the buffer whose name is exactly name, or nil
-- (bufnr() takes a pattern).
local function buffer_named(name)
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_get_name(b) == name then
      return b
    end
  end
  return nil
end

-- renaming holds the URI each answer buffer had before the rename under
-- way (BufFilePre to BufFilePost).
local renaming = {}

-- A renamed answer is a document that moved: Neovim's client does not tell
-- the server (0.7), or only on the buffer's next write (0.10+). The plugin
-- closes it under its old URI on BufFilePre, when the changes not sent yet
-- still go under the old name (a notification sends them first), and
-- opens it under the new one on BufFilePost, with the buffer's text and
-- version.

-- rename_started closes bufnr's document under its name before a rename.
local function rename_started(bufnr)
  local old = vim.uri_from_bufnr(bufnr)
  renaming[bufnr] = old
  for _, c in ipairs(get_clients({ name = 'graft', bufnr = bufnr })) do
    notify_client(c, 'textDocument/didClose', { textDocument = { uri = old } })
  end
end

-- renamed opens bufnr's document under its new name after a rename.
local function renamed(bufnr)
  local old = renaming[bufnr]
  renaming[bufnr] = nil
  local uri = vim.uri_from_bufnr(bufnr)
  if not old or old == uri then
    return
  end
  local ok, versions = pcall(function()
    return vim.lsp.util.buf_versions
  end)
  local version = ok and versions and versions[bufnr] or vim.api.nvim_buf_get_changedtick(bufnr)
  for _, c in ipairs(get_clients({ name = 'graft', bufnr = bufnr })) do
    notify_client(c, 'textDocument/didOpen', {
      textDocument = { uri = uri, languageId = vim.bo[bufnr].filetype, version = version, text = full_text(bufnr) },
    })
  end
  -- Neovim keeps the old name as an unlisted buffer (the alternate file);
  -- nothing is in it.
  local old_buf = is_answer_name(old) and buffer_named(old)
  if old_buf and old_buf ~= bufnr and not vim.api.nvim_buf_is_loaded(old_buf) then
    pcall(vim.api.nvim_buf_delete, old_buf, { force = true })
  end
end

-- write_answer is the BufWriteCmd of an answer named graft://answer/N:
-- :write {file} (or :saveas {file}) names the buffer after the file and
-- writes it there; :write, with no file, says the answer has none.
local function write_answer(bufnr, args)
  local target = args.match ~= '' and args.match or args.file
  if target == '' or is_answer_name(target) then
    -- One line, as Neovim's "E32: No file name" is: an error here would
    -- come under "Error detected while processing BufWriteCmd". The
    -- buffer stays modified, so Neovim takes the write as failed (:wq
    -- does not quit).
    notify('this answer is in no file yet: :write {file} saves it', vim.log.levels.WARN)
    return
  end
  target = vim.fn.fnamemodify(target, ':p')
  if vim.api.nvim_buf_get_name(bufnr) ~= target then
    local ok, err = pcall(vim.api.nvim_buf_set_name, bufnr, target)
    if not ok then
      notify('cannot name the answer ' .. target .. ': ' .. tostring(err), vim.log.levels.ERROR)
      return
    end
  end
  pcall(vim.api.nvim_del_augroup_by_name, 'graft_answer_' .. bufnr)
  local bang = vim.v.cmdbang == 1 and '!' or ''
  vim.api.nvim_buf_call(bufnr, function()
    vim.cmd('write' .. bang)
  end)
end

-- name_answer names bufnr graft://answer/N when it is an unnamed, listed
-- normal buffer of an answer filetype, and reports whether it holds an
-- answer name now. A plugin's scratch buffers ('buftype' nofile, unlisted:
-- the hover window's markdown) are left as they are.
local function name_answer(bufnr)
  if not vim.api.nvim_buf_is_valid(bufnr) then
    return false
  end
  local name = vim.api.nvim_buf_get_name(bufnr)
  if name ~= '' then
    return is_answer_name(name)
  end
  if vim.bo[bufnr].buftype ~= '' or not vim.bo[bufnr].buflisted or not is_answer_filetype(vim.bo[bufnr].filetype) then
    return false
  end
  local ok = pcall(vim.api.nvim_buf_set_name, bufnr, answer_prefix .. bufnr)
  if not ok then
    return false
  end
  local group = vim.api.nvim_create_augroup('graft_answer_' .. bufnr, { clear = true })
  vim.api.nvim_create_autocmd('BufWriteCmd', {
    group = group,
    buffer = bufnr,
    desc = 'graft: write an answer that is no file',
    -- The rename and the write it makes run their autocommands: the
    -- client's, and setup()'s.
    nested = true,
    callback = function(args)
      write_answer(bufnr, args)
    end,
  })
  vim.api.nvim_create_autocmd('BufFilePre', {
    group = group,
    buffer = bufnr,
    callback = function()
      rename_started(bufnr)
    end,
  })
  vim.api.nvim_create_autocmd('BufFilePost', {
    group = group,
    buffer = bufnr,
    callback = function()
      renamed(bufnr)
      if not is_answer_name(vim.api.nvim_buf_get_name(bufnr)) then
        -- A file now (:file {name}): written as files are.
        vim.api.nvim_clear_autocmds({ event = 'BufWriteCmd', group = group, buffer = bufnr })
      end
    end,
  })
  return true
end

local function is_attachable(bufnr)
  if not vim.api.nvim_buf_is_valid(bufnr) then
    return false
  end
  local bt = vim.bo[bufnr].buftype
  local ft = vim.bo[bufnr].filetype
  local name = vim.api.nvim_buf_get_name(bufnr)
  if is_answer_name(name) then
    return bt == '' or is_answer_filetype(ft)
  end
  if name == '' or name:match('^%a[%w+.-]*://') then
    return false -- no file, or another plugin's (fugitive://, oil://)
  end
  if bt == '' then
    return true
  end
  return bt == 'nofile' and vim.tbl_contains(M.config.answer_filetypes, ft)
end

local function client_by_id(id)
  if vim.lsp.get_client_by_id then
    return vim.lsp.get_client_by_id(id)
  end
  return get_clients({ id = id })[1]
end

-- break_undo starts a new undo block in buf, so that an edit applied from a
-- callback is not joined to the change before it: one `u` undoes the apply.
local function break_undo(buf)
  if vim.api.nvim_buf_is_loaded(buf) then
    vim.api.nvim_buf_call(buf, function()
      vim.cmd('let &undolevels = &undolevels')
    end)
  end
end

-- edit_buffers returns the loaded buffers a WorkspaceEdit changes.
local function edit_buffers(edit)
  local uris = {}
  for uri in pairs(edit.changes or {}) do
    uris[uri] = true
  end
  for _, change in ipairs(edit.documentChanges or {}) do
    if change.textDocument then
      uris[change.textDocument.uri] = true
    end
  end
  local bufs = {}
  for uri in pairs(uris) do
    local b = vim.uri_to_bufnr(uri)
    if vim.api.nvim_buf_is_loaded(b) then
      table.insert(bufs, b)
    end
  end
  return bufs
end

-- encoded_len returns the length of line in the position encoding of the
-- client (utf-8, utf-16 or utf-32).
local function encoded_len(line, encoding)
  if encoding == 'utf-8' then
    return #line
  end
  if vim.fn.has('nvim-0.11') == 1 then
    return vim.str_utfindex(line, encoding)
  end
  local utf32, utf16 = vim.str_utfindex(line)
  return encoding == 'utf-32' and utf32 or utf16
end

-- anchor_appends rewrites the text edits of edit that insert past the last
-- line of their buffer (at its line count: the end of a file that ends in a
-- newline) into the same insertion at the end of the last line, led by the
-- newline: Neovim before #40133 (0.10, 0.11) appends the former as whole
-- lines, and the newline ending the text leaves a stray empty line.
local function anchor_appends(edit, encoding)
  -- lines_of returns the lines of the buffer of uri, or of its file when
  -- no buffer holds it (Neovim loads the file to apply the edit); nil for
  -- a file an edit creates. It makes no buffer: a rename in the same edit
  -- could not name a buffer as one that is there already.
  local function lines_of(uri)
    local fname = vim.uri_to_fname(uri)
    local bufnr = vim.fn.bufnr(fname)
    if bufnr > 0 and vim.api.nvim_buf_is_loaded(bufnr) then
      return vim.api.nvim_buf_get_lines(bufnr, 0, -1, false)
    end
    if vim.fn.filereadable(fname) == 1 then
      local lines = vim.fn.readfile(fname)
      return #lines > 0 and lines or { '' }
    end
    return nil
  end
  local function anchor(uri, edits)
    local lines
    for _, e in ipairs(edits or {}) do
      if e.range and (e.newText or '') ~= '' then
        lines = lines or lines_of(uri) or {}
        local count = #lines
        if count > 0 and e.range.start.line >= count then
          local at = { line = count - 1, character = encoded_len(lines[count], encoding) }
          e.range = { start = at, ['end'] = vim.deepcopy(at) }
          e.newText = '\n' .. e.newText:gsub('\r?\n$', '')
        end
      end
    end
  end
  for uri, edits in pairs(edit.changes or {}) do
    anchor(uri, edits)
  end
  for _, change in ipairs(edit.documentChanges or {}) do
    if change.textDocument and change.edits then
      anchor(change.textDocument.uri, change.edits)
    end
  end
end

-- create_in_buffers turns the file creations of edit into new buffers:
-- Neovim's own handler writes an empty file at once, which stays on the
-- disk when the person quits without saving (and breaks a Go build), and
-- the text then inserted into the buffer's one empty line leaves an empty
-- line more at its end. Here the file is a buffer until the person writes
-- it, and its text edit makes exactly the file's lines, the buffer's
-- 'eol' giving the final newline (or none, as the content has it).
local function create_in_buffers(edit)
  local created = {}
  local kept = {}
  for _, change in ipairs(edit.documentChanges or {}) do
    local fname = change.kind == 'create' and vim.uri_to_fname(change.uri)
    if fname and vim.fn.filereadable(fname) == 0 and vim.fn.isdirectory(fname) == 0 then
      -- Its folder is made, as Neovim's handler makes it, so that :write
      -- works; the file is not.
      vim.fn.mkdir(vim.fn.fnamemodify(fname, ':h'), 'p')
      local b = vim.fn.bufadd(fname)
      vim.fn.bufload(b)
      vim.bo[b].buflisted = true
      created[change.uri] = b
    else
      table.insert(kept, change)
    end
  end
  if next(created) == nil then
    return
  end
  edit.documentChanges = kept
  for _, change in ipairs(kept) do
    local b = change.textDocument and created[change.textDocument.uri]
    for _, e in ipairs(b and change.edits or {}) do
      if e.range and e.range.start.line == 0 and e.range.start.character == 0 then
        local text = e.newText or ''
        if text:match('\r?\n$') then
          e.newText = text:gsub('\r?\n$', '')
        elseif text ~= '' then
          vim.bo[b].eol = false
          vim.bo[b].fixeol = false
        end
      end
    end
  end
end

-- apply_edit is the client's workspace/applyEdit handler: Neovim's own,
-- after an undo break in each buffer the edit changes, with files created
-- as buffers (create_in_buffers) and insertions past a buffer's last line
-- anchored to its end.
-- last_apply is what :GraftUndo undoes: each buffer the last edit Graft
-- applied changed, with its undo state right after (seq_cur); nil before
-- the first.
local last_apply = nil

-- hunks returns the module that draws the pending hunks.
local function hunks()
  return require('graft.hunks')
end

-- undo_seq returns the undo state of buffer b.
local function undo_seq(b)
  local seq
  vim.api.nvim_buf_call(b, function()
    seq = vim.fn.undotree().seq_cur
  end)
  return seq
end

local function apply_edit(err, result, ctx, config)
  if result and result.edit then
    -- Neovim 0.11+ prints an edit's label ("Workspace edit Graft: 1 edit
    -- blocks"), a second message beside the command's own, and a prompt.
    result.label = nil
    create_in_buffers(result.edit)
    for _, b in ipairs(edit_buffers(result.edit)) do
      break_undo(b)
    end
    local client = ctx and ctx.client_id and vim.lsp.get_client_by_id(ctx.client_id)
    anchor_appends(result.edit, client and client.offset_encoding or 'utf-16')
  end
  local reply = vim.lsp.handlers['workspace/applyEdit'](err, result, ctx, config)
  if result and result.edit and reply and reply.applied then
    -- Every buffer the edit changed is loaded now.
    last_apply = {}
    for _, b in ipairs(edit_buffers(result.edit)) do
      last_apply[b] = undo_seq(b)
    end
  end
  return reply
end

-- undo undoes the last edit Graft applied in every buffer it changed, one
-- undo step each, where nothing was changed since; a buffer changed since
-- is left as it is, and said so.
function M.undo()
  if not last_apply or next(last_apply) == nil then
    notify('nothing to undo: Graft applied no edit in this session', vim.log.levels.WARN)
    return
  end
  local undone, changed = 0, {}
  for b, seq in pairs(last_apply) do
    if vim.api.nvim_buf_is_valid(b) and vim.api.nvim_buf_is_loaded(b) then
      if undo_seq(b) == seq then
        vim.api.nvim_buf_call(b, function()
          vim.cmd('silent undo')
        end)
        undone = undone + 1
      else
        table.insert(changed, vim.fn.fnamemodify(vim.api.nvim_buf_get_name(b), ':.'))
      end
    end
  end
  last_apply = nil
  local msg = string.format('undid the last apply in %d buffer%s', undone, undone == 1 and '' or 's')
  if #changed > 0 then
    table.sort(changed)
    msg = msg .. '; changed since, left as they are (undo there by hand): ' .. table.concat(changed, ', ')
  end
  notify(msg, #changed > 0 and vim.log.levels.WARN or nil)
end

-- Code lenses.
--
-- Neovim 0.12 shows them itself once vim.lsp.codelens.enable() is on for a
-- buffer: it asks on changes and on the server's workspace/codeLens/refresh.
-- Before 0.12 a client asks with vim.lsp.codelens.refresh(), whose form
-- changed in 0.10 and which asks every server of the buffer; here the graft
-- client alone is asked, and Neovim's own handler, on_codelens(), shows the
-- answer, so vim.lsp.codelens.get() and run() see the lenses. Neovim before
-- 0.12 does not advertise workspace/codeLens/refresh, so the capabilities
-- below do, with the handler that answers it.

local has_codelens_enable = vim.lsp.codelens.enable ~= nil

-- lens_requests marks the code lens requests in flight, by client and
-- buffer: 'busy', or 'again' when another was asked for meanwhile.
local lens_requests = {}

-- request_lenses asks client for the code lenses of bufnr and shows them.
local function request_lenses(client, bufnr)
  local key = client.id .. ':' .. bufnr
  if lens_requests[key] then
    lens_requests[key] = 'again'
    return
  end
  if not vim.api.nvim_buf_is_loaded(bufnr) or not vim.lsp.buf_is_attached(bufnr, client.id) or is_stopped(client) then
    return
  end
  lens_requests[key] = 'busy'
  local params = { textDocument = { uri = vim.uri_from_bufnr(bufnr) } }
  local ok = request(client, 'textDocument/codeLens', params, function(err, result)
    local again = lens_requests[key] == 'again'
    lens_requests[key] = nil
    if vim.api.nvim_buf_is_loaded(bufnr) then
      vim.lsp.codelens.on_codelens(err, result, { method = 'textDocument/codeLens', client_id = client.id, bufnr = bufnr })
    end
    if again then
      request_lenses(client, bufnr)
    end
  end, bufnr)
  if not ok then
    lens_requests[key] = nil
  end
end

-- refresh_lenses asks again for the lenses of every loaded buffer attached
-- to client, or of bufnr only.
local function refresh_lenses(client, bufnr)
  for _, b in ipairs(bufnr and { bufnr } or vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) and vim.lsp.buf_is_attached(b, client.id) then
      request_lenses(client, b)
    end
  end
end

-- on_codelens_refresh answers the server's workspace/codeLens/refresh.
local function on_codelens_refresh(err, _, ctx)
  if not err and ctx and ctx.client_id then
    vim.schedule(function()
      local client = client_by_id(ctx.client_id)
      if client then
        refresh_lenses(client)
      end
    end)
  end
  return vim.NIL
end

-- lens_capabilities returns the client capabilities that let the server
-- know lenses are asked for and may be refreshed, or nil when Neovim's own
-- already say so (0.12) or lenses are off.
local function lens_capabilities()
  if not M.config.codelens or has_codelens_enable then
    return nil
  end
  local caps = vim.lsp.protocol.make_client_capabilities()
  caps.textDocument = caps.textDocument or {}
  caps.textDocument.codeLens = caps.textDocument.codeLens or { dynamicRegistration = false }
  caps.workspace = caps.workspace or {}
  caps.workspace.codeLens = vim.tbl_extend('force', caps.workspace.codeLens or {}, { refreshSupport = true })
  return caps
end

-- quiet_hints keeps the client's hints (a block that applies exactly,
-- or stands already; a pending hunk) from underlining every line they
-- cover: their sign and message say enough; warnings and errors are
-- underlined.
local function quiet_hints(client)
  local ok, ns = pcall(vim.lsp.diagnostic.get_namespace, client.id)
  if ok and ns then
    vim.diagnostic.config({ underline = { severity = { min = vim.diagnostic.severity.WARN } } }, ns)
  end
end

-- on_attach shows the lenses of a buffer the client attaches to, and
-- quiets its hints.
local function on_attach(client, bufnr)
  quiet_hints(client)
  if not M.config.codelens then
    return
  end
  if has_codelens_enable then
    -- The client marks the buffer attached after its on_attach callbacks.
    vim.schedule(function()
      if vim.api.nvim_buf_is_valid(bufnr) and vim.lsp.buf_is_attached(bufnr, client.id) then
        vim.lsp.codelens.enable(true, { bufnr = bufnr, client_id = client.id })
      end
    end)
  else
    request_lenses(client, bufnr)
  end
end

-- show_message is the client's window/showMessage handler. The server
-- tells what an apply did for editors that have no report of their own;
-- while one of the plugin's commands waits for its reply, which it reports
-- itself, a message that says the same (information) is not shown twice.
-- Others are shown once, as the plugin's own, without "LSP[graft]".
local function show_message(_, result)
  if not result or not result.message then
    return vim.NIL
  end
  local levels = { vim.log.levels.ERROR, vim.log.levels.WARN, vim.log.levels.INFO, vim.log.levels.DEBUG }
  local level = levels[result.type] or vim.log.levels.INFO
  if level >= vim.log.levels.INFO and (M.pending or 0) > 0 then
    return vim.NIL
  end
  if level == vim.log.levels.DEBUG then
    return vim.NIL
  end
  notify((result.message:gsub('^Graft: ', '')), level)
  return vim.NIL
end

-- publish_diagnostics is the client's textDocument/publishDiagnostics
-- handler: Neovim's own, then, for a buffer with hunks drawn or hinted
-- (the server hints each pending hunk; an answer buffer's hints are its
-- blocks', not hunks), a redraw of its hunks once the
-- diagnostics settle: the hunks follow the buffer as it is edited.
local function publish_diagnostics(err, result, ctx, config)
  if result and result.uri and is_answer_name(result.uri) then
    -- An answer renamed, or wiped: its URI names no buffer, and Neovim's
    -- handler would make one.
    local b = buffer_named(result.uri)
    if not b or not vim.api.nvim_buf_is_loaded(b) then
      return
    end
  end
  vim.lsp.handlers['textDocument/publishDiagnostics'](err, result, ctx, config)
  if not result or not result.uri then
    return
  end
  local buf = vim.uri_to_bufnr(result.uri)
  if not vim.api.nvim_buf_is_loaded(buf) then
    return
  end
  local hinted = false
  local answer = vim.tbl_contains(M.config.answer_filetypes, vim.bo[buf].filetype)
  for _, d in ipairs(answer and {} or result.diagnostics or {}) do
    if d.severity == 4 then
      hinted = true
    end
  end
  if hinted or hunks().byhunk[buf] then
    hunks().debounce(buf, 100, function()
      M.refresh_hunks(buf)
    end)
  end
end

-- server_config returns what every graft client is started with: the
-- command, the options, the handlers and the lens set-up.
local function server_config()
  local config = {
    name = 'graft',
    cmd = M.config.cmd,
    init_options = M.config.init_options,
    handlers = {
      ['workspace/applyEdit'] = apply_edit,
      ['window/showMessage'] = show_message,
      ['textDocument/publishDiagnostics'] = publish_diagnostics,
    },
    capabilities = lens_capabilities(),
    on_attach = on_attach,
  }
  if config.capabilities then
    config.handlers['workspace/codeLens/refresh'] = on_codelens_refresh
  end
  if M.config.capabilities then
    config.capabilities = vim.tbl_deep_extend('force', config.capabilities or vim.lsp.protocol.make_client_capabilities(),
      M.config.capabilities)
  end
  return config
end

-- lsp_config returns the server's configuration for Neovim 0.11's
-- vim.lsp.config(): the plugin's lsp/graft.lua returns it, so that
-- vim.lsp.enable('graft') starts the server, with the options a user's
-- vim.lsp.config('graft', {...}) sets over these. Its root_dir finds the
-- root as setup() does and leaves out the buffers setup() does not attach.
function M.lsp_config()
  local config = server_config()
  config.root_dir = function(bufnr, on_dir)
    name_answer(bufnr)
    if is_attachable(bufnr) then
      local cmd = M.cmd()
      local missing = missing_binary(cmd)
      if missing then
        say_start_failed(cmd, missing)
        return
      end
      on_dir(root_of(bufnr))
    end
  end
  return config
end

-- enabled_config returns the configuration vim.lsp.enable('graft') starts
-- the server with (0.11+), or nil when the server is not enabled that way.
local function enabled_config()
  if not (vim.lsp.is_enabled and vim.lsp.config) or not vim.lsp.is_enabled('graft') then
    return nil
  end
  return vim.lsp.config.graft
end

-- M.cmd returns the server's command line in effect: vim.lsp.config's when
-- the server is enabled with vim.lsp.enable('graft'), else setup()'s.
function M.cmd()
  local enabled = enabled_config()
  return enabled and enabled.cmd or M.config.cmd
end

-- client_for returns the running client of root, starting one when none is.
local function client_for(root, bufnr)
  local id = clients[root]
  if id then
    local c = client_by_id(id)
    if c and not is_stopped(c) then
      return c
    end
    clients[root] = nil
  end
  local enabled = enabled_config()
  local config = enabled and vim.deepcopy(enabled) or server_config()
  local missing = missing_binary(config.cmd)
  if missing then
    say_start_failed(config.cmd, missing)
    return nil
  end
  config.name = 'graft'
  config.root_dir = root
  config.workspace_folders = { { uri = vim.uri_from_fname(root), name = root } }
  config.on_exit = function()
    vim.schedule(function()
      if clients[root] == id then
        clients[root] = nil
      end
    end)
  end
  -- A client vim.lsp.enable started for the same root serves this one too.
  local reuse = function(c, conf)
    return c.name == conf.name and c.config.root_dir == conf.root_dir
  end
  if has_start and bufnr then
    -- 0.8+: vim.lsp.start reuses a client of the same root and attaches.
    id = vim.lsp.start(config, { bufnr = bufnr, reuse_client = reuse })
  elseif has_methods then
    -- 0.11 deprecated vim.lsp.start_client() for this.
    for _, c in ipairs(get_clients({ name = 'graft' })) do
      if reuse(c, config) and not is_stopped(c) then
        id = c.id
      end
    end
    id = id or vim.lsp.start(config, { attach = false })
  else
    id = vim.lsp.start_client(config)
  end
  if not id then
    -- Once per command line, not for every buffer opened after.
    say_start_failed(config.cmd, 'cannot start ' .. table.concat(config.cmd or {}, ' '))
    return nil
  end
  clients[root] = id
  return client_by_id(id)
end

-- start returns the client of root, starting it when none runs.
function M.start(root)
  return client_for(root)
end

-- attach attaches a buffer to the server of its root.
function M.attach(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  name_answer(bufnr)
  if not is_attachable(bufnr) then
    return nil
  end
  local root = root_of(bufnr)
  local client = client_for(root, bufnr)
  if not client then
    return nil
  end
  if not vim.lsp.buf_is_attached(bufnr, client.id) then
    vim.lsp.buf_attach_client(bufnr, client.id)
  end
  return client
end

-- client returns the client serving the current buffer (or the current
-- directory's root), attaching or starting it as needed.
function M.client(bufnr)
  bufnr = (bufnr == nil or bufnr == 0) and vim.api.nvim_get_current_buf() or bufnr
  return M.attach(bufnr) or client_for(root_of(bufnr))
end

-- Answer text.

-- target_uri is where blocks that name no file go: the current buffer,
-- unless it is an answer buffer (whose own text holds the searches) or has
-- no file.
local function target_uri(bufnr)
  local ft = vim.bo[bufnr].filetype
  local answer = ft == 'diff' or ft == 'patch' or vim.tbl_contains(M.config.answer_filetypes, ft)
  if answer or vim.bo[bufnr].buftype ~= '' or vim.api.nvim_buf_get_name(bufnr) == '' then
    return nil
  end
  return vim.uri_from_bufnr(bufnr)
end

-- register_text returns the text of reg, by default + when it holds text,
-- else the unnamed register.
function M.register_text(reg)
  if reg == nil or reg == '' then
    if vim.fn.has('clipboard') == 1 then
      local ok, text = pcall(vim.fn.getreg, '+')
      if ok and type(text) == 'string' and text ~= '' then
        return text, '+'
      end
    end
    reg = '"'
  end
  return vim.fn.getreg(reg), reg
end

-- Replies.

local function fname_of(uri)
  if not uri or uri == '' then
    return nil
  end
  return vim.uri_to_fname(uri)
end

local function first_line(s)
  return ((s or ''):match('^[^\n]*'))
end

-- succeeded reports whether a block's status is a success: applied, or
-- already applied (its change stood in the file: nothing written).
local function succeeded(status)
  return status == 'applied' or status == 'already-applied' or status == 'unchanged' or status == 'would apply'
end

-- candidate_lines returns the first lines of the places a refusal's
-- message names ("candidate at lines 12-15"), in its order.
local function candidate_lines(message)
  local lines = {}
  for l in (message or ''):gmatch('candidate at lines (%d+)%-%d+') do
    table.insert(lines, tonumber(l))
  end
  return lines
end

-- failures returns the quickfix entries of a reply's failed blocks: at the
-- best candidate's location, with the reason; a block refused as
-- ambiguous gets one entry per place it resembles, for the person to
-- look at each.
local function failures(blocks)
  local items = {}
  for _, b in ipairs(blocks or {}) do
    if not succeeded(b.status) then
      local n = b.block or ((b.index or 0) + 1)
      local text = string.format('block %d %s: %s', n, b.status or '?', first_line(b.message))
      local fname = fname_of(b.uri) or (b.path ~= '' and b.path) or nil
      local places = candidate_lines(b.message)
      if b.reason ~= 'ambiguous' or #places < 2 then
        -- A failed block's range is its best candidate, where the server
        -- found something like the search; without one, the first line
        -- the message names, else the file's first.
        local lnum = 1
        if b.range then
          lnum = b.range.start.line + 1
        elseif (b.startLine or 0) > 0 then
          lnum = b.startLine
        elseif places[1] then
          lnum = places[1]
        end
        places = { lnum }
      end
      for k, lnum in ipairs(places) do
        local t = text
        if #places > 1 then
          t = string.format('%s (place %d of %d)', text, k, #places)
        end
        table.insert(items, { filename = fname, lnum = lnum, col = 1, type = 'E', text = t })
      end
    end
  end
  return items
end

-- report_lines turns block entries into one line each; for a preview
-- (would true) a block that applies is said to be one that would apply.
function M.report_lines(blocks, would)
  local lines = {}
  for _, b in ipairs(blocks or {}) do
    local status = b.status or '?'
    if would and status == 'applied' then
      status = 'would apply'
    end
    local where = ''
    if (b.startLine or 0) > 0 then
      where = string.format(' lines %d-%d', b.startLine, math.max(b.endLine or 0, b.startLine))
    end
    table.insert(
      lines,
      string.format(
        'block %d %s: %s (%s, %.2f)%s',
        b.block or ((b.index or 0) + 1),
        b.path ~= '' and b.path or '?',
        status,
        b.strategy ~= '' and b.strategy or '-',
        b.score or 0,
        where
      )
    )
    if b.message and b.message ~= '' then
      for l in vim.gsplit(b.message, '\n', true) do
        table.insert(lines, '    ' .. l)
      end
    end
  end
  return lines
end

-- set_failures puts the failed blocks in a new quickfix list (the list
-- before it stays in the stack: :colder); with no failure, it only empties
-- a Graft list left by an earlier command.
local function set_failures(blocks, title)
  local items = failures(blocks)
  if #items > 0 then
    vim.fn.setqflist({}, ' ', { title = title, items = items })
  elseif (vim.fn.getqflist({ title = 0 }).title or ''):match('^Graft') then
    vim.fn.setqflist({}, 'r', { title = title, items = {} })
  end
  if #items > 0 and M.config.open_quickfix then
    local win = vim.api.nvim_get_current_win()
    vim.cmd('botright copen')
    vim.api.nvim_set_current_win(win)
  end
  return #items
end

-- counts returns how many blocks of a reply succeeded and how many did
-- not, as the person counts the answer's blocks: the entries of the files
-- of one apply-patch share its number and are one block, which failed
-- when any of its files did.
local function counts(blocks)
  local order, ok_of = {}, {}
  for _, b in ipairs(blocks or {}) do
    local n = b.block or 0
    if n <= 0 then
      n = -((b.index or #order) + 1) -- a server that numbers none: each entry is a block
    end
    if ok_of[n] == nil then
      table.insert(order, n)
      ok_of[n] = true
    end
    ok_of[n] = ok_of[n] and succeeded(b.status)
  end
  local ok, failed = 0, 0
  for _, n in ipairs(order) do
    if ok_of[n] then
      ok = ok + 1
    else
      failed = failed + 1
    end
  end
  return ok, failed
end

-- execute runs one of the server's commands and calls done(err, result).
function M.execute(command, params, done, bufnr)
  local client = M.client(bufnr)
  if not client then
    local missing = missing_binary(M.cmd())
    done(missing and (missing .. ' (:checkhealth graft)') or 'no graft server', nil)
    return
  end
  M.pending = (M.pending or 0) + 1
  request(client, 'workspace/executeCommand', { command = command, arguments = { params } }, function(err, result)
    M.pending = M.pending - 1
    -- 0.5.1+ handler signature: (err, result, ctx, config)
    if err then
      done(err.message or vim.inspect(err), nil)
    else
      done(nil, result)
    end
  end)
  -- No bufnr: the client flushes the pending changes of every buffer first,
  -- so the server resolves against the buffers as they are now.
end

-- Commands.

-- finish records the outcome of a command in M.last and hands it to cb,
-- when there is one.
local function finish(kind, err, result, cb)
  M.last[kind] = { err = err, result = result, seq = (M.last[kind] and M.last[kind].seq or 0) + 1 }
  M.last.seq = (M.last.seq or 0) + 1
  M.last.kind = kind
  if cb then
    cb(err, result)
  end
end

-- refresh_hunks asks the server for the pending hunks of buf and draws
-- them, then calls cb, when there is one.
function M.refresh_hunks(buf, cb)
  local function done()
    M.last.hunks = { seq = (M.last.hunks and M.last.hunks.seq or 0) + 1 }
    if cb then
      cb()
    end
  end
  if not vim.api.nvim_buf_is_loaded(buf) or vim.api.nvim_buf_get_name(buf) == '' then
    done()
    return
  end
  local client = M.client(buf)
  if not client then
    done()
    return
  end
  request(client, 'workspace/executeCommand', {
    command = 'graft.suggestions',
    arguments = { { uri = vim.uri_from_bufnr(buf) } },
  }, function(err, result)
    if not err and vim.api.nvim_buf_is_loaded(buf) then
      hunks().draw(buf, result or {}, client.offset_encoding or 'utf-16')
    end
    done()
  end)
end

-- refresh_all redraws the hunks of every loaded buffer that has some
-- drawn, and of bufs, then calls cb.
local function refresh_all(bufs, cb)
  local todo = {}
  for b in pairs(hunks().byhunk) do
    todo[b] = true
  end
  for _, b in ipairs(bufs or {}) do
    todo[b] = true
  end
  local left = 1
  local function one()
    left = left - 1
    if left == 0 and cb then
      cb()
    end
  end
  for b in pairs(todo) do
    if vim.api.nvim_buf_is_loaded(b) then
      left = left + 1
      M.refresh_hunks(b, one)
    else
      hunks().byhunk[b] = nil
    end
  end
  one()
end

-- hunk_buffers returns the loaded buffers of the hunks of a reply.
local function hunk_buffers(list)
  local bufs = {}
  for _, h in ipairs(list or {}) do
    if h.uri then
      local b = vim.fn.bufnr(vim.uri_to_fname(h.uri))
      if b > 0 and vim.api.nvim_buf_is_loaded(b) then
        table.insert(bufs, b)
      end
    end
  end
  return bufs
end

-- decide sends graft.accept or graft.reject (kind) with params, redraws
-- the hunks and reports, then records the outcome.
local function decide(kind, params, cb)
  M.execute('graft.' .. kind, params, function(err, result)
    if err then
      -- Nothing pending where the person asked is a warning, not a failure.
      local level = err:match('no pending hunk') and vim.log.levels.WARN or vim.log.levels.ERROR
      notify(kind .. ': ' .. err, level)
      finish(kind, err, result, cb)
      return
    end
    refresh_all({}, function()
      -- accepted lists the ids; rejected counts them.
      local n = result and (result.accepted or result.rejected) or 0
      n = type(n) == 'table' and #n or tonumber(n) or 0
      if kind == 'accept' then
        local _, failed = counts(result and result.blocks)
        notify(string.format('accepted %d hunk%s', n, n == 1 and '' or 's')
          .. (failed > 0 and string.format(', %d no longer apply', failed) or ''),
          failed > 0 and vim.log.levels.WARN or nil)
      else
        notify(string.format('rejected %d hunk%s', n, n == 1 and '' or 's'))
      end
      finish(kind, nil, result, cb)
    end)
  end)
end

-- hunk_params returns the params that pick the hunk under the cursor
-- (every hunk of the buffer when whole), or nil and why not.
local function hunk_params(whole)
  local buf = vim.api.nvim_get_current_buf()
  local uri = vim.uri_from_bufnr(buf)
  if whole then
    return { uri = uri }
  end
  local row = vim.api.nvim_win_get_cursor(0)[1] - 1
  local h = hunks().at(buf, row)
  if not h then
    return nil, 'no pending hunk under the cursor'
  end
  return { id = h.id, uri = uri }
end

-- decide_picked accepts or rejects (kind) the hunk under the cursor, every
-- hunk of the buffer (opts.buffer) or every hunk (opts.all).
local function decide_picked(kind, opts, cb)
  opts = opts or {}
  local params, why = {}, nil
  if not opts.all then
    params, why = hunk_params(opts.buffer)
  end
  if not params then
    notify(why, vim.log.levels.WARN)
    finish(kind, why, nil, cb)
    return
  end
  decide(kind, params, cb)
end

-- accept accepts the hunk under the cursor, every hunk of the buffer
-- (opts.buffer) or every hunk (opts.all).
function M.accept(opts, cb)
  decide_picked('accept', opts, cb)
end

-- reject rejects the hunk under the cursor, every hunk of the buffer
-- (opts.buffer) or every hunk (opts.all).
function M.reject(opts, cb)
  decide_picked('reject', opts, cb)
end

-- next_hunk moves the cursor to the next pending hunk of the buffer (the
-- previous one when back).
function M.next_hunk(back)
  local buf = vim.api.nvim_get_current_buf()
  local row = hunks().next_row(buf, vim.api.nvim_win_get_cursor(0)[1] - 1, back)
  if not row then
    notify('no pending hunks in this buffer', vim.log.levels.WARN)
    return
  end
  vim.cmd("normal! m'")
  vim.api.nvim_win_set_cursor(0, { math.min(row + 1, vim.api.nvim_buf_line_count(buf)), 0 })
end

-- apply sends text to graft.apply (opts: uri, atomic).
function M.apply(text, opts, cb)
  opts = opts or {}
  local params = { text = text, uri = opts.uri, atomic = opts.atomic or nil }
  M.execute('graft.apply', params, function(err, result)
    if err then
      notify('apply: ' .. err, vim.log.levels.ERROR)
    else
      local ok, failed = counts(result.blocks)
      set_failures(result.blocks, 'Graft apply')
      local msg = string.format('%d applied, %d failed', ok, failed)
      if not result.applied and result.failureReason then
        msg = msg .. ' (not applied: ' .. result.failureReason .. ')'
      end
      if failed > 0 then
        msg = msg .. '; see the quickfix list'
      end
      notify(msg, failed > 0 and vim.log.levels.WARN or vim.log.levels.INFO)
    end
    finish('apply', err, result, cb)
  end)
end

-- preview opens a scratch diff buffer with what text would change.
function M.preview(text, opts, cb)
  opts = opts or {}
  M.execute('graft.preview', { text = text, uri = opts.uri }, function(err, result)
    if err then
      notify('preview: ' .. err, vim.log.levels.ERROR)
    else
      local lines = {}
      for _, l in ipairs(M.report_lines(result.blocks, true)) do
        table.insert(lines, '# ' .. l)
      end
      local diff = (result.diff or ''):gsub('\n$', '')
      if diff ~= '' then
        vim.list_extend(lines, vim.split(diff, '\n', true))
      end
      vim.cmd('botright new')
      local buf = vim.api.nvim_get_current_buf()
      vim.bo[buf].buftype = 'nofile'
      vim.bo[buf].bufhidden = 'wipe'
      vim.bo[buf].swapfile = false
      vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
      vim.bo[buf].modified = false
      vim.bo[buf].filetype = 'diff'
      pcall(vim.api.nvim_buf_set_name, buf, 'graft://preview/' .. buf)
      M.preview_buf = buf
      set_failures(result.blocks, 'Graft preview')
    end
    finish('preview', err, result, cb)
  end)
end

-- suggest turns the blocks of text into pending suggestions.
function M.suggest(text, opts, cb)
  opts = opts or {}
  M.execute('graft.suggest', { text = text, uri = opts.uri }, function(err, result)
    if err then
      notify('suggest: ' .. err, vim.log.levels.ERROR)
    else
      local _, failed = counts(result.blocks)
      set_failures(result.blocks, 'Graft suggest')
      notify(string.format('%d suggestions, %d failed', #(result.suggestions or {}), failed),
        failed > 0 and vim.log.levels.WARN or vim.log.levels.INFO)
      refresh_all(hunk_buffers(result.hunks), function()
        finish('suggest', err, result, cb)
      end)
      return
    end
    finish('suggest', err, result, cb)
  end)
end

-- suggestions lists the pending suggestions in the quickfix list.
function M.suggestions(cb)
  M.execute('graft.suggestions', vim.empty_dict(), function(err, result)
    if err then
      notify('suggestions: ' .. err, vim.log.levels.ERROR)
    else
      local items = {}
      for _, s in ipairs(result or {}) do
        table.insert(items, {
          filename = fname_of(s.uri),
          lnum = s.range.start.line + 1,
          col = 1,
          type = s.state == 'stale' and 'W' or 'I',
          text = string.format('%s [%s] %s', s.summary or '', s.state or '', first_line(s.message)),
        })
      end
      vim.fn.setqflist({}, ' ', { title = 'Graft suggestions', items = items })
      if #items == 0 then
        notify('no pending suggestions')
      elseif M.config.open_quickfix then
        local win = vim.api.nvim_get_current_win()
        vim.cmd('botright copen')
        vim.api.nvim_set_current_win(win)
      end
    end
    finish('suggestions', err, result, cb)
  end)
end

local function command_text(o)
  local bufnr = vim.api.nvim_get_current_buf()
  if o.range and o.range > 0 then
    local lines = vim.api.nvim_buf_get_lines(bufnr, o.line1 - 1, o.line2, false)
    return table.concat(lines, '\n') .. '\n', { uri = target_uri(bufnr) }
  end
  local text, reg = M.register_text(o.args)
  if text == '' then
    notify('register ' .. reg .. ' is empty', vim.log.levels.WARN)
    return nil
  end
  return text, { uri = target_uri(bufnr) }
end

function M.info()
  local lines = {}
  for _, c in ipairs(get_clients({ name = 'graft' })) do
    local log = ''
    if c.config and c.config.cmd then
      for i, a in ipairs(c.config.cmd) do
        if a == '--log' then
          log = c.config.cmd[i + 1] or ''
        end
      end
    end
    table.insert(lines, string.format('client %d: %s', c.id, table.concat(c.config.cmd or {}, ' ')))
    table.insert(lines, '  root: ' .. (c.config.root_dir or '?'))
    table.insert(lines, '  server log: ' .. (log ~= '' and log or 'none (pass --log FILE in cmd)'))
    table.insert(lines, '  client log: ' .. M.log_path())
  end
  if #lines == 0 then
    lines = { 'no graft server running; cmd: ' .. table.concat(M.cmd(), ' ') }
  end
  return lines
end

-- define_commands defines the plugin's commands; plugin/graft.lua does on
-- start-up, so that they are there without setup() (vim.lsp.enable), and
-- setup() does again.
function M.define_commands()
  hunks().define_highlights()
  vim.api.nvim_create_autocmd('ColorScheme', {
    group = vim.api.nvim_create_augroup('graft_highlights', { clear = true }),
    callback = function()
      hunks().define_highlights()
    end,
  })
  create_command('GraftApply', function(o)
    local text, opts = command_text(o)
    if text then
      M.apply(text, opts)
    end
  end, { nargs = '?', range = true, desc = 'Apply the edit blocks of a register or the selected lines' })
  create_command('GraftApplyBuffer', function()
    local bufnr = vim.api.nvim_get_current_buf()
    local text = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, false), '\n') .. '\n'
    M.apply(text, {})
  end, { desc = 'Apply every edit block of the current buffer' })
  create_command('GraftPreview', function(o)
    local text, opts = command_text(o)
    if text then
      M.preview(text, opts)
    end
  end, { nargs = '?', range = true, desc = 'Preview the edit blocks of a register' })
  create_command('GraftSuggest', function(o)
    local text, opts = command_text(o)
    if text then
      M.suggest(text, opts)
    end
  end, { nargs = '?', range = true, desc = 'Turn the edit blocks of a register into suggestions' })
  create_command('GraftSuggestions', function()
    M.suggestions()
  end, { desc = 'List the pending suggestions in the quickfix list' })
  create_command('GraftAccept', function(o)
    M.accept({ buffer = o.bang })
  end, { bang = true, desc = 'Accept the pending hunk under the cursor (!: every hunk of the buffer)' })
  create_command('GraftReject', function(o)
    M.reject({ buffer = o.bang })
  end, { bang = true, desc = 'Reject the pending hunk under the cursor (!: every hunk of the buffer)' })
  create_command('GraftAcceptAll', function()
    M.accept({ all = true })
  end, { desc = 'Accept every pending hunk of every buffer' })
  create_command('GraftRejectAll', function()
    M.reject({ all = true })
  end, { desc = 'Reject every pending hunk of every buffer' })
  create_command('GraftNextHunk', function()
    M.next_hunk(false)
  end, { desc = 'Move to the next pending hunk' })
  create_command('GraftPrevHunk', function()
    M.next_hunk(true)
  end, { desc = 'Move to the previous pending hunk' })
  create_command('GraftUndo', function()
    M.undo()
  end, { desc = 'Undo the last apply in every buffer it changed' })
  create_command('GraftInfo', function()
    print(table.concat(M.info(), '\n'))
  end, { desc = 'Show the graft servers, their roots and logs' })
end

local mapping_commands = {
  apply = ':GraftApply<CR>',
  apply_selection = ":GraftApply<CR>",
  apply_buffer = ':GraftApplyBuffer<CR>',
  preview = ':GraftPreview<CR>',
  suggest = ':GraftSuggest<CR>',
  suggestions = ':GraftSuggestions<CR>',
  accept = ':GraftAccept<CR>',
  reject = ':GraftReject<CR>',
  accept_buffer = ':GraftAccept!<CR>',
  reject_buffer = ':GraftReject!<CR>',
  accept_all = ':GraftAcceptAll<CR>',
  reject_all = ':GraftRejectAll<CR>',
  next_hunk = ':GraftNextHunk<CR>',
  prev_hunk = ':GraftPrevHunk<CR>',
}

-- default_mappings are the mappings setup({ mappings = true }) makes.
local default_mappings = {
  accept = '<leader>ha',
  reject = '<leader>hr',
  accept_buffer = '<leader>hA',
  reject_buffer = '<leader>hR',
  next_hunk = ']h',
  prev_hunk = '[h',
}

local function define_mappings(maps)
  if maps == true then
    maps = default_mappings
  end
  if type(maps) ~= 'table' then
    return
  end
  for name, lhs in pairs(maps) do
    local rhs = mapping_commands[name]
    if rhs and lhs then
      local mode = name == 'apply_selection' and 'x' or 'n'
      vim.api.nvim_set_keymap(mode, lhs, rhs, { noremap = true, silent = true, desc = 'graft ' .. name })
    end
  end
end

-- setup configures the plugin, defines its commands and attaches the server
-- to the buffers that are open and those that open later.
function M.setup(opts)
  M.config = vim.tbl_deep_extend('force', vim.deepcopy(defaults), opts or {})
  M.define_commands()
  define_mappings(M.config.mappings)
  local group = vim.api.nvim_create_augroup('graft', { clear = true })
  -- BufFilePost, BufWritePost: a buffer named by :file {name} or :write
  -- {file} (an answer pasted into :vnew, then saved) attaches as :edit
  -- would; attaching a buffer attached already does nothing.
  vim.api.nvim_create_autocmd({ 'BufReadPost', 'BufNewFile', 'FileType', 'BufFilePost', 'BufWritePost' }, {
    group = group,
    callback = function(args)
      M.attach(args.buf)
    end,
  })
  if M.config.codelens and not has_codelens_enable then
    -- When Neovim's docs say to refresh lenses before 0.12; one autocmd
    -- for all buffers, as buffers attach and detach.
    vim.api.nvim_create_autocmd({ 'BufEnter', 'CursorHold', 'InsertLeave' }, {
      group = group,
      callback = function(args)
        for _, c in ipairs(get_clients({ name = 'graft', bufnr = args.buf })) do
          refresh_lenses(c, args.buf)
        end
      end,
    })
  end
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_is_loaded(b) then
      M.attach(b)
    end
  end
end

M._get_clients = get_clients

return M
