/// sclm's SQLite schema, one migration per version.
///
/// Column names keep StoryContent's Core Data attribute names (StoryContent's Core Data model) where
/// they exist (`clientId`, `syncState`, `pageSource`, `isAvailableForSharing`, …); sclm's own columns
/// use the same camel case (`installedRevision`, `publishError`). Dates are ISO-8601 text: server dates
/// as the server sent them, local instants in UTC with milliseconds. Booleans are 0/1 integers.
package enum Schema {
    /// Version 1: content metadata, auth, analytics rows and preferences.
    package static let version1 = Migration(version: 1, name: "initial schema", sql: version1SQL)

    /// Version 2: the package findings of each installed revision (`package_findings`), and
    /// `presentations.findingsRevision`, the installed revision they belong to. `NULL` there means the
    /// findings were never recorded (a revision installed by an sclm before version 2), which is not the
    /// same as a clean package.
    package static let version2 = Migration(version: 2, name: "package findings", sql: version2SQL)

    /// Version 3: values strict row decoding requires that earlier schemas allowed to be `NULL`.
    ///
    /// Records decode a missing or `NULL` required column as an error, so this fills what versions 1 and 2
    /// could hold as `NULL`: a slide view's `navigation` (a nullable column that ``SlideActionRecord`` reads
    /// as text) becomes `''`, and a `preferences` row with a `NULL` value (a value that was never set, which
    /// ``Database/setPreference(scope:key:value:now:)`` stores by deleting the row) is removed.
    package static let version3 = Migration(version: 3, name: "fill values left NULL", sql: version3SQL)

    /// Version 4: the durable mark of an unpack in progress and the count of unpacks interrupted in a row
    /// (``UnpackAttempts``): `presentations.unpackRevision` is the revision whose unpack began and has not
    /// ended (`NULL` when none), `interruptedRevision` the revision whose unpack was found interrupted
    /// `unpackInterruptions` times in a row.
    package static let version4 = Migration(version: 4, name: "interrupted unpacks", sql: version4SQL)

    /// Version 5: the manifest of each installed revision (`installed_files`: path, size, CRC-32 and the
    /// inode and times that detect a later change), and `presentations.manifestRevision`, the installed
    /// revision it describes (`NULL`: none recorded, as for a revision installed before version 5).
    package static let version5 = Migration(version: 5, name: "installed file manifests", sql: version5SQL)

    /// Version 6: a session's `visit` and `checkIn`, the fields of a storyclm.js 1.x session that content sets
    /// with `sessionupdate` (``SessionChanges``). Both are 0 until content changes them, as for every session
    /// recorded before version 6.
    package static let version6 = Migration(version: 6, name: "session visit and check-in", sql: version6SQL)

    private static let version1SQL = """
        CREATE TABLE clients (
            clientId INTEGER PRIMARY KEY,
            name TEXT NOT NULL DEFAULT '',
            shortDescription TEXT,
            longDescription TEXT,
            email TEXT,
            url TEXT,
            imgId TEXT,
            thumbImgId TEXT,
            lockoutEnabled INTEGER NOT NULL DEFAULT 0,
            created TEXT,
            updatedDate TEXT,
            synchronized TEXT,
            rawData TEXT
        ) STRICT;

        CREATE TABLE presentations (
            presentationId INTEGER PRIMARY KEY,
            clientId INTEGER NOT NULL REFERENCES clients(clientId) ON DELETE CASCADE,
            name TEXT NOT NULL DEFAULT '',
            shortDescription TEXT,
            longDescription TEXT,
            imgId TEXT,
            thumbImgId TEXT,
            "order" INTEGER NOT NULL DEFAULT -1,
            revision INTEGER NOT NULL DEFAULT -1,
            created TEXT,
            updatedDate TEXT,
            debugModeEnabled INTEGER NOT NULL DEFAULT 0,
            skip INTEGER NOT NULL DEFAULT 0,
            lockout INTEGER NOT NULL DEFAULT 0,
            mapEnabled INTEGER NOT NULL DEFAULT 1,
            mapType INTEGER NOT NULL DEFAULT 0,
            map TEXT,
            needConfirmation INTEGER NOT NULL DEFAULT 0,
            previewMode INTEGER NOT NULL DEFAULT 0,
            visibility INTEGER NOT NULL DEFAULT 0,
            rawData TEXT,
            syncState INTEGER NOT NULL DEFAULT 0 CHECK (syncState BETWEEN 0 AND 5),
            installedRevision INTEGER,
            installedAt TEXT,
            syncError TEXT,
            opened INTEGER NOT NULL DEFAULT 0,
            openedDate TEXT,
            isNew INTEGER NOT NULL DEFAULT 1
        ) STRICT;
        CREATE INDEX presentations_by_client ON presentations(clientId);

        CREATE TABLE slides (
            slideId INTEGER PRIMARY KEY,
            presentationId INTEGER NOT NULL REFERENCES presentations(presentationId) ON DELETE CASCADE,
            position INTEGER NOT NULL DEFAULT 0,
            revision INTEGER NOT NULL DEFAULT -1,
            name TEXT NOT NULL DEFAULT '',
            pageSource TEXT,
            linkedSlides TEXT,
            swipeNext TEXT,
            swipePrevious TEXT,
            created TEXT,
            updatedDate TEXT
        ) STRICT;
        CREATE INDEX slides_by_presentation ON slides(presentationId, position);

        CREATE TABLE media_files (
            mediaFileId INTEGER PRIMARY KEY,
            presentationId INTEGER NOT NULL REFERENCES presentations(presentationId) ON DELETE CASCADE,
            position INTEGER NOT NULL DEFAULT 0,
            revision INTEGER NOT NULL DEFAULT -1,
            fileName TEXT NOT NULL DEFAULT '',
            title TEXT,
            blobId TEXT,
            mimeType TEXT,
            fileSize INTEGER NOT NULL DEFAULT 0,
            isAvailableForSharing INTEGER NOT NULL DEFAULT 1,
            created TEXT,
            updatedDate TEXT,
            installedRevision INTEGER
        ) STRICT;
        CREATE INDEX media_files_by_presentation ON media_files(presentationId, position);

        CREATE TABLE content_packages (
            presentationId INTEGER PRIMARY KEY REFERENCES presentations(presentationId) ON DELETE CASCADE,
            contentPackageId INTEGER NOT NULL DEFAULT 0,
            revision INTEGER NOT NULL DEFAULT -1,
            blobId TEXT,
            fileSize INTEGER NOT NULL DEFAULT 0,
            mimeType TEXT,
            created TEXT,
            updatedDate TEXT
        ) STRICT;

        CREATE TABLE auth_tokens (
            id INTEGER PRIMARY KEY CHECK (id = 1),
            grantType TEXT NOT NULL,
            accessToken TEXT NOT NULL,
            tokenType TEXT NOT NULL DEFAULT 'Bearer',
            refreshToken TEXT,
            expiresAt REAL NOT NULL,
            issuedAt REAL NOT NULL,
            subject TEXT,
            userName TEXT,
            authURL TEXT
        ) STRICT;

        CREATE TABLE users (
            userId TEXT PRIMARY KEY,
            name TEXT,
            fullName TEXT,
            email TEXT,
            phoneNumber TEXT,
            location TEXT,
            birthDate TEXT,
            gender INTEGER,
            code INTEGER
        ) STRICT;

        CREATE TABLE sessions (
            sessionId TEXT PRIMARY KEY,
            presentationId INTEGER NOT NULL,
            userId TEXT,
            state INTEGER NOT NULL DEFAULT 0 CHECK (state BETWEEN 0 AND 4),
            complete INTEGER NOT NULL DEFAULT 0,
            duration INTEGER NOT NULL DEFAULT 0,
            completeSessionDuration INTEGER NOT NULL DEFAULT 0,
            slidesCount INTEGER NOT NULL DEFAULT 0,
            lastOpenedSlideId INTEGER,
            lastOpenedSlideName TEXT,
            created TEXT NOT NULL,
            updated TEXT,
            timeZone INTEGER NOT NULL DEFAULT 0,
            latitude REAL,
            longitude REAL,
            address TEXT,
            isRestored INTEGER NOT NULL DEFAULT 0,
            synchronized INTEGER NOT NULL DEFAULT 0,
            publishAttempts INTEGER NOT NULL DEFAULT 0,
            publishError TEXT,
            publishedAt TEXT
        ) STRICT;
        CREATE INDEX sessions_by_presentation ON sessions(presentationId, state);
        CREATE INDEX sessions_pending ON sessions(synchronized) WHERE synchronized = 0;

        CREATE TABLE session_actions (
            id TEXT PRIMARY KEY,
            sessionId TEXT NOT NULL REFERENCES sessions(sessionId) ON DELETE CASCADE,
            presentationId INTEGER NOT NULL,
            userId TEXT,
            slideId INTEGER,
            slideName TEXT NOT NULL,
            navigation TEXT,
            duration INTEGER NOT NULL DEFAULT 0,
            created TEXT NOT NULL,
            timeZone INTEGER NOT NULL DEFAULT 0,
            latitude REAL,
            longitude REAL,
            isRestored INTEGER NOT NULL DEFAULT 0,
            synchronized INTEGER NOT NULL DEFAULT 0,
            publishAttempts INTEGER NOT NULL DEFAULT 0,
            publishError TEXT,
            publishedAt TEXT
        ) STRICT;
        CREATE INDEX session_actions_by_session ON session_actions(sessionId, created);
        CREATE INDEX session_actions_pending ON session_actions(synchronized) WHERE synchronized = 0;

        CREATE TABLE custom_events (
            id TEXT PRIMARY KEY,
            sessionId TEXT NOT NULL REFERENCES sessions(sessionId) ON DELETE CASCADE,
            presentationId INTEGER NOT NULL,
            userId TEXT,
            key TEXT NOT NULL,
            value TEXT NOT NULL DEFAULT '',
            created TEXT NOT NULL,
            timeZone INTEGER NOT NULL DEFAULT 0,
            latitude REAL,
            longitude REAL,
            isRestored INTEGER NOT NULL DEFAULT 0,
            synchronized INTEGER NOT NULL DEFAULT 0,
            publishAttempts INTEGER NOT NULL DEFAULT 0,
            publishError TEXT,
            publishedAt TEXT
        ) STRICT;
        CREATE INDEX custom_events_by_session ON custom_events(sessionId, presentationId, key);
        CREATE INDEX custom_events_pending ON custom_events(synchronized) WHERE synchronized = 0;

        CREATE TABLE preferences (
            scope TEXT NOT NULL,
            key TEXT NOT NULL,
            value TEXT,
            updated TEXT,
            PRIMARY KEY (scope, key)
        ) STRICT, WITHOUT ROWID;
        """

    private static let version2SQL = """
        ALTER TABLE presentations ADD COLUMN findingsRevision INTEGER;

        CREATE TABLE package_findings (
            presentationId INTEGER NOT NULL REFERENCES presentations(presentationId) ON DELETE CASCADE,
            position INTEGER NOT NULL,
            rule TEXT NOT NULL,
            severity TEXT NOT NULL CHECK (severity IN ('error', 'warning')),
            class TEXT NOT NULL CHECK (class IN ('safety', 'content')),
            path TEXT,
            line INTEGER,
            message TEXT NOT NULL,
            PRIMARY KEY (presentationId, position)
        ) STRICT, WITHOUT ROWID;
        """

    private static let version3SQL = """
        UPDATE session_actions SET navigation = '' WHERE navigation IS NULL;
        DELETE FROM preferences WHERE value IS NULL;
        """

    private static let version4SQL = """
        ALTER TABLE presentations ADD COLUMN unpackRevision INTEGER;
        ALTER TABLE presentations ADD COLUMN interruptedRevision INTEGER;
        ALTER TABLE presentations ADD COLUMN unpackInterruptions INTEGER NOT NULL DEFAULT 0;
        """

    private static let version5SQL = """
        ALTER TABLE presentations ADD COLUMN manifestRevision INTEGER;

        CREATE TABLE installed_files (
            presentationId INTEGER NOT NULL REFERENCES presentations(presentationId) ON DELETE CASCADE,
            path TEXT NOT NULL,
            size INTEGER NOT NULL,
            crc32 INTEGER NOT NULL,
            inode INTEGER NOT NULL,
            mtimeNs INTEGER NOT NULL,
            ctimeNs INTEGER NOT NULL,
            PRIMARY KEY (presentationId, path)
        ) STRICT, WITHOUT ROWID;
        """

    private static let version6SQL = """
        ALTER TABLE sessions ADD COLUMN visit INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE sessions ADD COLUMN checkIn INTEGER NOT NULL DEFAULT 0;
        """
}
