-- Macros, characters in rolls and installed generator programs (issue 5): what
-- 0001's tables lack. Portable SQL, as in 0001; SQLite adds one column per ALTER TABLE.

-- Who created and who last changed a macro, by name as well as id, so that
-- `/macro show` can name them without asking Discord.
ALTER TABLE macros ADD COLUMN created_by_name TEXT NOT NULL DEFAULT '';
ALTER TABLE macros ADD COLUMN updated_by_name TEXT NOT NULL DEFAULT '';

-- Who installed a program (by name), how many lines it has, and how many syntax
-- errors the installer accepted when confirming the install.
ALTER TABLE programs ADD COLUMN installed_by_name TEXT NOT NULL DEFAULT '';
ALTER TABLE programs ADD COLUMN line_count BIGINT NOT NULL DEFAULT 0;
ALTER TABLE programs ADD COLUMN syntax_errors BIGINT NOT NULL DEFAULT 0;
