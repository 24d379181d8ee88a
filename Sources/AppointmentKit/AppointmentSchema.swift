import Storage

/// AppointmentService's database schema, one migration per version. Instants are UTC milliseconds; local dates and
/// times are derived from them with the calendar's zone when shown.
enum AppointmentSchema {
    static let migrations: [Migration] = [
        Migration(version: 1, name: "call types with platform defaults", sql: """
            CREATE TABLE call_types (
                tenant TEXT NOT NULL,
                code TEXT NOT NULL,
                name TEXT NOT NULL,
                handler TEXT NOT NULL CHECK (handler IN ('KYC', 'KYB')),
                position INTEGER NOT NULL,
                active INTEGER NOT NULL DEFAULT 1,
                PRIMARY KEY (tenant, code)
            );
            INSERT INTO call_types(tenant, code, name, handler, position) VALUES
                ('', 'onboarding', 'Remote onboarding video call', 'KYC', 1),
                ('', 'reverification', 'Identity re-verification', 'KYC', 2),
                ('', 'limit_increase', 'Limit increase verification', 'KYC', 3),
                ('', 'corporate_onboarding', 'Corporate onboarding video call', 'KYB', 1),
                ('', 'representative', 'Authorised representative verification', 'KYB', 2);
            """),
        // Calendars: working hours as "weekday opens closes" lines, closed dates as "YYYY-MM-DD" lines.
        // Appointments: identity_type holds the document code (TCKN, PASSPORT, FOREIGN_ID); request_fingerprint is
        // the normalised booking form, compared when a client repeats a uid.
        Migration(version: 2, name: "calendars and appointments", sql: """
            CREATE TABLE calendars (
                tenant TEXT NOT NULL,
                call_type TEXT NOT NULL,
                time_zone TEXT NOT NULL,
                working_hours TEXT NOT NULL,
                slot_minutes INTEGER NOT NULL,
                capacity INTEGER NOT NULL,
                closed_dates TEXT NOT NULL,
                horizon_days INTEGER NOT NULL,
                minimum_notice_minutes INTEGER NOT NULL,
                cancellation_cutoff_minutes INTEGER NOT NULL,
                updated_unix_ms INTEGER NOT NULL,
                PRIMARY KEY (tenant, call_type)
            );
            INSERT INTO calendars(tenant, call_type, time_zone, working_hours, slot_minutes, capacity, closed_dates,
                                  horizon_days, minimum_notice_minutes, cancellation_cutoff_minutes, updated_unix_ms)
            SELECT '', code, 'Europe/Istanbul',
                   '1 09:00 18:00' || char(10) || '2 09:00 18:00' || char(10) || '3 09:00 18:00' || char(10) ||
                   '4 09:00 18:00' || char(10) || '5 09:00 18:00',
                   15, 2, '', 30, 60, 30, 0
            FROM call_types WHERE tenant = '';
            CREATE TABLE appointments (
                tenant TEXT NOT NULL,
                uid TEXT NOT NULL,
                call_type TEXT NOT NULL,
                identity_type TEXT NOT NULL,
                identity_no TEXT NOT NULL,
                name TEXT NOT NULL,
                surname TEXT NOT NULL,
                phone TEXT NOT NULL,
                email TEXT NOT NULL,
                start_unix_ms INTEGER NOT NULL,
                end_unix_ms INTEGER NOT NULL,
                time_zone TEXT NOT NULL,
                is_priority_customer INTEGER NOT NULL,
                status TEXT NOT NULL CHECK (status IN ('booked', 'cancelled')),
                cancel_reason TEXT NOT NULL DEFAULT '',
                cancelled_unix_ms INTEGER,
                created_unix_ms INTEGER NOT NULL,
                booked_by TEXT NOT NULL,
                request_fingerprint TEXT NOT NULL,
                PRIMARY KEY (tenant, uid)
            );
            CREATE INDEX appointments_by_slot ON appointments(tenant, call_type, start_unix_ms) WHERE status = 'booked';
            CREATE INDEX appointments_by_identity ON appointments(tenant, identity_type, identity_no, start_unix_ms);
            """),
    ]
}

/// Runs statements either directly on a `Database` or inside a `Transaction`, so the reading code is shared.
protocol StatementRunner {
    func query(_ sql: String, _ bindings: [SQLValue]) throws -> [Row]
    func queryOne(_ sql: String, _ bindings: [SQLValue]) throws -> Row?
    func execute(_ sql: String, _ bindings: [SQLValue]) throws -> Int
}

extension Database: StatementRunner {}
extension Transaction: StatementRunner {}
