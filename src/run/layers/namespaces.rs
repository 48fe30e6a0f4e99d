//! Namespaces and the session keyring: each run gets its own user, pid, IPC, network and UTS
//! namespaces and a fresh session keyring, so nothing one run creates (System V shared memory,
//! semaphores, message queues, abstract socket names, keys, keyrings) is visible to another
//! run or outlives the run, and the whole process tree dies with the run.
//!
//! * prepare ([`plan`]): which namespaces this machine allows (probed once, see
//!   [`probe`]) and the uid/gid map lines, built before `fork`.
//! * apply ([`apply_privileged`], [`apply_user`], [`mount_proc`], [`join_session_keyring`]):
//!   in the spawned children (`sandbox::spawn`), every step checked.
//!   - As root: `unshare(CLONE_NEWUSER | NEWPID | NEWIPC | NEWNET | NEWUTS)` after dropping
//!     to the run's uid, mapping that uid (and gid) to itself: keys and per-uid keyrings then
//!     belong to the run's user namespace and die with it. Where the kernel refuses user
//!     namespaces, the other namespaces are unshared as root before the uid drop.
//!   - Unprivileged: the same `unshare` as the grader's own uid, mapped to itself.
//!   - pid namespace: `unshare(CLONE_NEWPID)` only affects children, so the first child
//!     starts the program's process with `clone(CLONE_PARENT)`: a child of the grader and
//!     pid 1 of the new namespace, which mounts its `/proc` and execs the program; the first
//!     child then exits. When the program ends, the kernel kills everything left in the
//!     namespace (double-forked `setsid` escapees included); the runner's pidfd, `wait4`
//!     and process-group kill act on the program itself.
//!   - keyring: `keyctl(KEYCTL_JOIN_SESSION_KEYRING, NULL)`: a new anonymous session keyring.
//!   - network namespace: not a new one per run (making and tearing one down is a fifth of a
//!     class run's time) but one of a pool ([`pooled_network`]), made by the grader and
//!     joined with `setns` before the uid drop and before the run's user namespace is made.
//!     As root the pool's namespaces belong to the first user namespace; an unprivileged
//!     grader makes them in a user namespace of its own ([`grader_user_namespace`]), which
//!     its runs' children enter first and make their own user namespace inside. Either way
//!     no run's program has a capability over its namespace. Two runs at once never share
//!     one; a run hands its namespace on only when it has ended, and with it every process
//!     and so every socket it made.
//! * doctor ([`describe`]): which of these hold here, and what is missing.

use std::ffi::CString;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::sync::{Mutex, OnceLock};

use super::LayerState;

const KEYCTL_JOIN_SESSION_KEYRING: libc::c_long = 1;

/// The namespaces besides the user namespace that every run gets.
pub const RUN_NAMESPACES: libc::c_int =
    libc::CLONE_NEWPID | libc::CLONE_NEWIPC | libc::CLONE_NEWNET | libc::CLONE_NEWUTS;

/// What this machine allows, probed once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Support {
    /// A user namespace (with [`RUN_NAMESPACES`]) can be created by the run's uid.
    pub user: bool,
    /// [`RUN_NAMESPACES`] can be created without a user namespace (root only).
    pub privileged: bool,
    /// `KEYCTL_JOIN_SESSION_KEYRING` works (container seccomp profiles often refuse it).
    pub keyring: bool,
    /// With the user namespace, a mount namespace with a private `/dev/pts` (a new devpts
    /// instance: no terminal of the grader's can be opened by name) and a `/proc` of the run's
    /// own pid namespace (no other process is visible) can be set up.
    pub mount: bool,
    /// And on it the run's own root filesystem ([`super::rootfs`]).
    pub rootfs: bool,
}

/// Probes what works here, in short-lived children (cached). The usual machine answers in
/// two children started at once: one builds a run's whole root in new namespaces (which
/// needs the user and mount namespaces and a new `/proc`, so it answers for them too), the
/// other tries the keyring and, as root, the namespaces without a user namespace. Only where
/// the root cannot be built are the smaller steps tried one by one.
pub fn probe() -> Support {
    static SUPPORT: OnceLock<Support> = OnceLock::new();
    *SUPPORT.get_or_init(|| {
        let root = super::uid::is_root();
        // A uid nobody uses, as the run would have it.
        let uid = super::uid::per_run_uid();
        let workdir = std::env::temp_dir();
        let root_plan = super::rootfs::plan(&workdir, &[], None, true);
        let namespaces_plan = mount_plan(root, uid);
        let whole_root = start_child(|| {
            in_new_namespaces_here(&namespaces_plan, root, uid, || {
                // SAFETY: in the probe's child, pid 1 of its namespace, on a plan built before
                // the fork.
                unsafe { super::rootfs::apply(&root_plan).is_ok() }
            })
        });
        const KEYRING: i32 = 1;
        const PRIVILEGED: i32 = 2;
        let others = start_child_code(|| {
            // SAFETY: keyctl with a null name, then unshare, in a forked child.
            unsafe {
                let keyring = libc::syscall(
                    libc::SYS_keyctl,
                    KEYCTL_JOIN_SESSION_KEYRING,
                    std::ptr::null::<libc::c_char>(),
                ) >= 0;
                let privileged = root && libc::unshare(RUN_NAMESPACES) == 0;
                i32::from(keyring) * KEYRING + i32::from(privileged) * PRIVILEGED
            }
        });
        let rootfs = finish_child(whole_root) == Some(0);
        let bits = finish_child(others).unwrap_or(0);
        let (keyring, privileged) = (bits & KEYRING != 0, bits & PRIVILEGED != 0);
        if rootfs {
            return Support {
                user: true,
                privileged,
                keyring,
                mount: true,
                rootfs: true,
            };
        }
        let user = in_child(|| {
            // SAFETY: syscalls only, in a forked child.
            unsafe {
                if root
                    && (libc::setgroups(0, std::ptr::null()) != 0
                        || libc::setresgid(uid, uid, uid) != 0
                        || libc::setresuid(uid, uid, uid) != 0)
                {
                    return false;
                }
                libc::unshare(libc::CLONE_NEWUSER | RUN_NAMESPACES) == 0
            }
        });
        // The mount namespace as a run would set it up (many containers refuse a new proc),
        // then the run's own root on top of it (some refuse pivot_root or a mount).
        let mount = user
            && in_new_namespaces(root, uid, || {
                // SAFETY: in the probe's child, pid 1 of its namespace.
                unsafe { mount_proc(&mount_plan(root, uid)).is_ok() }
            });
        Support {
            user,
            privileged,
            keyring,
            mount,
            rootfs: false,
        }
    })
}

/// The namespace plan of the mount probes: user, mount, pid and the rest, as a run gets them.
fn mount_plan(root: bool, uid: u32) -> Plan {
    let (u, g) = if root {
        (uid, uid)
    } else {
        // SAFETY: geteuid/getegid cannot fail.
        unsafe { (libc::geteuid(), libc::getegid()) }
    };
    Plan {
        user_flags: libc::CLONE_NEWUSER | libc::CLONE_NEWNS | RUN_NAMESPACES,
        uid_map: CString::new(format!("{u} {u} 1\n")).unwrap_or_default(),
        gid_map: CString::new(format!("{g} {g} 1\n")).unwrap_or_default(),
        pid: true,
        mount: true,
        devpts: false,
        ..Plan::default()
    }
}

/// Runs `pid1` in a child that is pid 1 of new user, mount, pid, IPC, network and UTS
/// namespaces, as a run's program is (as root after dropping to `uid`); true when every step
/// and `pid1` succeeded.
fn in_new_namespaces(root: bool, uid: u32, pid1: impl Fn() -> bool) -> bool {
    let plan = mount_plan(root, uid);
    in_child(|| in_new_namespaces_here(&plan, root, uid, &pid1))
}

/// The body of [`in_new_namespaces`], in the forked child that becomes the namespaces' owner
/// (`plan` built before the fork: the child may not allocate).
fn in_new_namespaces_here(plan: &Plan, root: bool, uid: u32, pid1: impl Fn() -> bool) -> bool {
    {
        // SAFETY: syscalls only, in a forked child, on the plan built before the fork.
        unsafe {
            if root
                && (libc::setgroups(0, std::ptr::null()) != 0
                    || libc::setresgid(uid, uid, uid) != 0
                    || libc::setresuid(uid, uid, uid) != 0)
            {
                return false;
            }
            if apply_user(plan).is_err() {
                return false;
            }
            let pid = libc::syscall(
                libc::SYS_clone,
                libc::SIGCHLD as libc::c_ulong,
                0usize,
                0usize,
                0usize,
                0usize,
            ) as libc::pid_t;
            if pid == 0 {
                libc::_exit(if pid1() { 0 } else { 1 });
            }
            let mut status = 0;
            pid > 0
                && libc::waitpid(pid, &mut status, 0) == pid
                && libc::WIFEXITED(status)
                && libc::WEXITSTATUS(status) == 0
        }
    }
}

/// Starts `f` in a forked child whose exit status says whether it returned true (0) or not;
/// the pid, or -1 when the fork failed. See [`finish_child`].
fn start_child(f: impl Fn() -> bool) -> libc::pid_t {
    start_child_code(|| if f() { 0 } else { 1 })
}

/// Starts `f` in a forked child that exits with what `f` returned (0 to 127).
fn start_child_code(f: impl Fn() -> i32) -> libc::pid_t {
    // SAFETY: the child only runs `f` (syscalls) and _exit.
    unsafe {
        let pid = libc::fork();
        if pid == 0 {
            libc::_exit(f().clamp(0, 127));
        }
        pid
    }
}

/// Waits for a child of [`start_child`]: its exit status, `None` if it failed to start or
/// did not exit normally.
fn finish_child(pid: libc::pid_t) -> Option<i32> {
    if pid <= 0 {
        return None;
    }
    let mut status = 0;
    // SAFETY: waiting for our own child.
    unsafe {
        while libc::waitpid(pid, &mut status, 0) < 0 {
            if *libc::__errno_location() != libc::EINTR {
                return None;
            }
        }
    }
    libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status))
}

/// Runs `f` in a forked child and returns what it returned (false if the fork failed).
fn in_child(f: impl Fn() -> bool) -> bool {
    // SAFETY: the child only runs `f` (syscalls) and _exit.
    unsafe {
        let pid = libc::fork();
        if pid == 0 {
            libc::_exit(if f() { 0 } else { 1 });
        }
        if pid < 0 {
            return false;
        }
        let mut status = 0;
        while libc::waitpid(pid, &mut status, 0) < 0 {
            if *libc::__errno_location() != libc::EINTR {
                return false;
            }
        }
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0
    }
}

/// The namespace part of one run's child setup, built in the parent.
#[derive(Debug, Default)]
pub struct Plan {
    /// Unshared as root before the uid drop (no user namespace available), or 0.
    pub privileged_flags: libc::c_int,
    /// Unshared together with `CLONE_NEWUSER` after the uid drop, or 0.
    pub user_flags: libc::c_int,
    /// `/proc/self/uid_map` content: the run's uid mapped to itself.
    pub uid_map: CString,
    /// `/proc/self/gid_map` content.
    pub gid_map: CString,
    /// A new pid namespace: the program is started as pid 1 of it (see `sandbox::spawn`).
    pub pid: bool,
    /// A network namespace of the pool to join before the uid drop (and before the run's
    /// user namespace is made).
    pub network_fd: Option<RawFd>,
    /// The user namespace that pooled network namespace belongs to, entered first: an
    /// unprivileged grader's own ([`grader_user_namespace`]); `None` as root.
    pub network_owner: Option<RawFd>,
    /// Join a fresh session keyring.
    pub keyring: bool,
    /// A private `/proc` in a mount namespace (with `CLONE_NEWNS` in `user_flags`).
    pub mount: bool,
    /// Also a private `/dev/pts` (not for `--terminal` runs, whose terminal lives in the
    /// grader's devpts: `ttyname` must still find it).
    pub devpts: bool,
}

/// The plan for a run as `uid` (root's per-run uid) or as the grader's own uid (`None`);
/// `network` false keeps the grader's network namespace (`GRADE_DISABLE=netns`).
pub fn plan(uid: Option<u32>, enabled: bool, network: bool) -> Plan {
    let support = probe();
    let mut plan = Plan {
        keyring: support.keyring,
        ..Plan::default()
    };
    if !enabled {
        return plan;
    }
    let mut flags = RUN_NAMESPACES;
    // A network namespace per run, as root too: abstract socket names are listed in
    // /proc/net/unix to every process of a namespace, a channel between runs sharing one
    // (issue 31); about a millisecond per run.
    if !network {
        flags &= !libc::CLONE_NEWNET;
    }
    // SAFETY: geteuid/getegid cannot fail.
    let (u, g) = match uid {
        Some(id) => (id, id),
        None => unsafe { (libc::geteuid(), libc::getegid()) },
    };
    if support.user {
        plan.user_flags = libc::CLONE_NEWUSER | flags;
        if support.mount {
            plan.user_flags |= libc::CLONE_NEWNS;
            plan.mount = true;
            plan.devpts = true;
        }
        plan.uid_map = CString::new(format!("{u} {u} 1\n")).unwrap_or_default();
        plan.gid_map = CString::new(format!("{g} {g} 1\n")).unwrap_or_default();
        plan.pid = true;
    } else if support.privileged {
        plan.privileged_flags = flags;
        plan.pid = true;
    }
    plan
}

impl Plan {
    /// Whether the plan makes a new network namespace (and so could join a pooled one).
    pub fn makes_network(&self) -> bool {
        (self.privileged_flags | self.user_flags) & libc::CLONE_NEWNET != 0
    }

    /// Joins `network` (a namespace of the pool) instead of making a new one.
    pub fn join_network(&mut self, network: &PooledNetwork) {
        self.privileged_flags &= !libc::CLONE_NEWNET;
        self.user_flags &= !libc::CLONE_NEWNET;
        self.network_fd = network.fd.as_ref().map(AsRawFd::as_raw_fd);
        self.network_owner = network.owner;
    }
}

/// Network namespaces no run is in: made by [`pooled_network`], given back by a run's
/// [`PooledNetwork`] when the run has ended.
static NETWORK_POOL: Mutex<Vec<OwnedFd>> = Mutex::new(Vec::new());

/// A network namespace for one run: one of the pool, or a new one when every namespace of
/// the pool is in a run. Held for the whole run (until every process of the run has been
/// reaped), then given back. As root the namespaces belong to the first user namespace; an
/// unprivileged grader makes them in a user namespace of its own
/// ([`grader_user_namespace`]), inside which each run makes its own user namespace: in both
/// cases the run's processes have no capability over the namespace they are given. `None`
/// where none can be made (the kernel refuses): the run then makes its own, as [`plan`]
/// says.
pub fn pooled_network() -> Option<PooledNetwork> {
    let owner = if super::uid::is_root() {
        None
    } else {
        Some(grader_user_namespace()?)
    };
    let free = NETWORK_POOL.lock().ok().and_then(|mut pool| pool.pop());
    let fd = match (free, owner) {
        (Some(fd), _) => fd,
        (None, None) => new_network()?,
        (None, Some(user)) => namespace_made_in_child(
            // SAFETY: setns and unshare take no pointer.
            || unsafe {
                libc::setns(user, libc::CLONE_NEWUSER) == 0
                    && libc::unshare(libc::CLONE_NEWNET) == 0
            },
            c"/proc/self/ns/net",
        )?,
    };
    Some(PooledNetwork {
        fd: Some(fd),
        owner,
    })
}

/// A new network namespace, made in a thread of its own (a thread's namespaces are its own:
/// the grader's other threads stay where they are) and kept open by its `/proc` file.
fn new_network() -> Option<OwnedFd> {
    std::thread::spawn(|| {
        // SAFETY: unshare takes no pointer; it changes only this short-lived thread.
        if unsafe { libc::unshare(libc::CLONE_NEWNET) } != 0 {
            return None;
        }
        // SAFETY: a valid C string; the fd returned is owned here.
        let fd = unsafe {
            libc::open(
                c"/proc/thread-self/ns/net".as_ptr(),
                libc::O_RDONLY | libc::O_CLOEXEC,
            )
        };
        // SAFETY: a fresh descriptor of our own.
        (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd) })
    })
    .join()
    .ok()
    .flatten()
}

/// An unprivileged grader's own user namespace, made once (its uid and gid mapped to
/// themselves, `setgroups` denied, as a run's): the owner of the network namespaces it pools.
/// A user namespace can be entered only by a process of its parent namespace (the grader's
/// children before their own user namespace), never by a run's program, which lives in a
/// user namespace of its own made inside this one. `None` where the kernel refuses.
pub fn grader_user_namespace() -> Option<RawFd> {
    static OWN: OnceLock<Option<OwnedFd>> = OnceLock::new();
    OWN.get_or_init(|| {
        // SAFETY: geteuid/getegid cannot fail.
        let (u, g) = unsafe { (libc::geteuid(), libc::getegid()) };
        let uid_map = CString::new(format!("{u} {u} 1\n")).ok()?;
        let gid_map = CString::new(format!("{g} {g} 1\n")).ok()?;
        namespace_made_in_child(
            // SAFETY: unshare, then writes of C strings built before the fork.
            || unsafe {
                libc::unshare(libc::CLONE_NEWUSER) == 0
                    && write_file(c"/proc/self/setgroups", b"deny").is_ok()
                    && write_file(c"/proc/self/uid_map", uid_map.as_bytes()).is_ok()
                    && write_file(c"/proc/self/gid_map", gid_map.as_bytes()).is_ok()
            },
            c"/proc/self/ns/user",
        )
    })
    .as_ref()
    .map(AsRawFd::as_raw_fd)
}

/// A namespace that `enter` puts a forked child into, kept open by its file `ns_file` (under
/// `/proc/self/ns/`), which the child opens in the grader's own descriptor table
/// (`CLONE_FILES`) in place of a descriptor reserved for it here. Namespaces that a
/// multi-threaded process cannot enter (a user namespace) are made this way; the child
/// only makes system calls and exits.
fn namespace_made_in_child(enter: impl Fn() -> bool, ns_file: &std::ffi::CStr) -> Option<OwnedFd> {
    // SAFETY: a valid C string; the descriptor returned is ours.
    let reserved = unsafe { libc::open(c"/dev/null".as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC) };
    if reserved < 0 {
        return None;
    }
    // SAFETY: a fresh descriptor of our own.
    let reserved = unsafe { OwnedFd::from_raw_fd(reserved) };
    let target = reserved.as_raw_fd();
    // SAFETY: a fork sharing the descriptor table; the child makes system calls only (on
    // memory prepared before it) and exits.
    let pid = unsafe {
        libc::syscall(
            libc::SYS_clone,
            (libc::CLONE_FILES | libc::SIGCHLD) as libc::c_ulong,
            0usize,
            0usize,
            0usize,
            0usize,
        ) as libc::pid_t
    };
    if pid == 0 {
        // SAFETY: in the child: system calls, then its end.
        unsafe {
            let opened = enter() && {
                let fd = libc::open(ns_file.as_ptr(), libc::O_RDONLY | libc::O_CLOEXEC);
                fd >= 0 && libc::dup3(fd, target, libc::O_CLOEXEC) == target
            };
            libc::_exit(if opened { 0 } else { 1 });
        }
    }
    (finish_child(pid) == Some(0)).then_some(reserved)
}

/// A run's network namespace from the pool ([`pooled_network`]); back to the pool on drop.
#[derive(Debug)]
pub struct PooledNetwork {
    /// Always `Some` until the drop hands it back.
    fd: Option<OwnedFd>,
    /// The user namespace it belongs to, for an unprivileged grader (its own).
    owner: Option<RawFd>,
}

impl Drop for PooledNetwork {
    fn drop(&mut self) {
        if let (Some(fd), Ok(mut pool)) = (self.fd.take(), NETWORK_POOL.lock()) {
            pool.push(fd);
        }
    }
}

/// Child side, before the uid drop: the pooled network namespace (an unprivileged grader's
/// entered through the user namespace it belongs to, which the run's own is then made in)
/// and, as root without user namespaces, the namespaces that need none.
///
/// # Safety
/// Call only in the forked child before exec.
pub unsafe fn apply_privileged(plan: &Plan) -> Result<(), i32> {
    // SAFETY: unshare and setns take no pointer.
    unsafe {
        if let Some(user) = plan.network_owner {
            if libc::setns(user, libc::CLONE_NEWUSER) != 0 {
                return Err(*libc::__errno_location());
            }
        }
        if let Some(fd) = plan.network_fd {
            if libc::setns(fd, libc::CLONE_NEWNET) != 0 {
                return Err(*libc::__errno_location());
            }
        }
        if plan.privileged_flags != 0 && libc::unshare(plan.privileged_flags) != 0 {
            return Err(*libc::__errno_location());
        }
    }
    Ok(())
}

/// Child side, after the uid drop: the user namespace with the uid and gid mapped to
/// themselves, and the other namespaces owned by it.
///
/// # Safety
/// Call only in the forked child before exec.
pub unsafe fn apply_user(plan: &Plan) -> Result<(), i32> {
    if plan.user_flags == 0 {
        return Ok(());
    }
    // SAFETY: syscalls on C strings owned by the plan.
    unsafe {
        let errno = || *libc::__errno_location();
        // After a uid change the process is not dumpable and its /proc files belong to root:
        // make them the run's own again so it can write its maps.
        if libc::prctl(libc::PR_SET_DUMPABLE, 1, 0, 0, 0) != 0 {
            return Err(errno());
        }
        if libc::unshare(plan.user_flags) != 0 {
            return Err(errno());
        }
        write_file(c"/proc/self/setgroups", b"deny")?;
        write_file(c"/proc/self/uid_map", plan.uid_map.as_bytes())?;
        write_file(c"/proc/self/gid_map", plan.gid_map.as_bytes())?;
        if plan.mount {
            // Nothing mounted here propagates back; then a devpts of the run's own.
            if libc::mount(
                c"none".as_ptr(),
                c"/".as_ptr(),
                std::ptr::null(),
                libc::MS_REC | libc::MS_PRIVATE,
                std::ptr::null(),
            ) != 0
            {
                return Err(*libc::__errno_location());
            }
            if plan.devpts
                && libc::mount(
                    c"devpts".as_ptr(),
                    c"/dev/pts".as_ptr(),
                    c"devpts".as_ptr(),
                    libc::MS_NOSUID | libc::MS_NOEXEC,
                    c"newinstance,ptmxmode=0666,mode=0620".as_ptr().cast(),
                ) != 0
            {
                return Err(*libc::__errno_location());
            }
        }
    }
    Ok(())
}

/// Child side, in the new pid namespace: a `/proc` that shows only the run's processes.
///
/// # Safety
/// Call only in the spawned child before exec, as pid 1 of the new pid namespace.
pub unsafe fn mount_proc(plan: &Plan) -> Result<(), i32> {
    if !plan.mount {
        return Ok(());
    }
    // SAFETY: mount with valid C strings.
    unsafe {
        if libc::mount(
            c"proc".as_ptr(),
            c"/proc".as_ptr(),
            c"proc".as_ptr(),
            libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC,
            std::ptr::null(),
        ) != 0
        {
            return Err(*libc::__errno_location());
        }
    }
    Ok(())
}

/// Writes `content` to `path` in one write. Child side: syscalls only.
unsafe fn write_file(path: &std::ffi::CStr, content: &[u8]) -> Result<(), i32> {
    // SAFETY: a valid C string and a live slice.
    unsafe {
        let fd = libc::open(path.as_ptr(), libc::O_WRONLY | libc::O_CLOEXEC);
        if fd < 0 {
            return Err(*libc::__errno_location());
        }
        let n = libc::write(fd, content.as_ptr().cast(), content.len());
        let err = *libc::__errno_location();
        libc::close(fd);
        if n != content.len() as isize {
            return Err(if n < 0 { err } else { libc::EIO });
        }
    }
    Ok(())
}

/// Child side: a fresh anonymous session keyring, so keys the program adds there are its own
/// and go away with it.
///
/// # Safety
/// Call only in the forked child before exec.
pub unsafe fn join_session_keyring(plan: &Plan) -> Result<(), i32> {
    if !plan.keyring {
        return Ok(());
    }
    // SAFETY: keyctl with a null name.
    unsafe {
        if libc::syscall(
            libc::SYS_keyctl,
            KEYCTL_JOIN_SESSION_KEYRING,
            std::ptr::null::<libc::c_char>(),
        ) < 0
        {
            return Err(*libc::__errno_location());
        }
    }
    Ok(())
}

/// What `grade doctor` and the report say about namespaces here.
pub fn describe(root: bool) -> Vec<LayerState> {
    let s = probe();
    let namespaces = if s.user {
        LayerState {
            name: "namespaces",
            active: true,
            required: false,
            detail: if s.mount {
                "own user, pid, mount, IPC, network and UTS namespaces per run: no shared \
                 memory, keys or socket names between runs; a private /dev/pts and /proc; the \
                 tree dies with the run"
                    .into()
            } else {
                "own user, pid, IPC, network and UTS namespaces per run: no shared memory, keys \
                 or socket names between runs; the tree dies with the run (no private /proc: \
                 the kernel refused a new proc mount here)"
                    .into()
            },
        }
    } else if s.privileged {
        LayerState {
            name: "namespaces",
            active: true,
            required: false,
            detail: "own pid, IPC, network and UTS namespaces per run (user namespaces refused: \
                     per-uid keyrings of run uids stay in the kernel)"
                .into(),
        }
    } else {
        LayerState {
            name: "namespaces",
            active: false,
            required: false,
            detail: if root {
                "refused here: runs share IPC and network namespaces".into()
            } else {
                "unprivileged user namespaces refused (kernel.unprivileged_userns_clone, \
                 user.max_user_namespaces or an LSM): runs share System V IPC, abstract \
                 socket names, and escaped processes are only swept, not killed with a namespace"
                    .into()
            },
        }
    };
    vec![
        namespaces,
        LayerState {
            name: "session keyring",
            active: s.keyring,
            required: false,
            detail: if s.keyring {
                "a fresh session keyring per run".into()
            } else {
                "keyctl refused here: runs share the session keyring".into()
            },
        },
    ]
}
