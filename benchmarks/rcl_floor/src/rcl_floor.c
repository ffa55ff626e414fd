// SPDX-License-Identifier: Apache-2.0
//
// rcl_floor: the C floor of issue 40. A node on rcl alone (no executor, no rclcpp) that
//  - publishes pre-serialized messages on N publishers at R Hz from an absolute-deadline loop
//    (rcl_publish_serialized_message), and
//  - takes M raw subscriptions (rcl_take_serialized_message) inside an rcl wait set whose
//    timeout is the time left to the next deadline, every waiting sample on each wake-up.
// Publishers and subscriptions of several types: repeatable --pub TYPE:TOPIC[:FILE] and
// --sub TYPE:TOPIC specs (each its own type and topic), instead of the N/M same-type ones.
// It prints "running:" once its entities exist and its counts when it stops (SIGINT, SIGTERM
// or --duration), and exits 0. `rcl_floor --help` lists the flags.

#define _POSIX_C_SOURCE 200809L

#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <rcl/error_handling.h>
#include <rcl/rcl.h>
#include <rmw/error_handling.h>
#include <rcutils/allocator.h>
#include <rmw/rmw.h>
#include <rmw/serialized_message.h>
#include <rosidl_runtime_c/message_type_support_struct.h>

#include <hb50_commons/msg/bridge_data.h>
#include <hb50_commons/msg/bridge_state.h>
#include <hb50_commons/msg/joint_command.h>
#include <hb50_commons/msg/robot_state.h>
#include <hb50_commons/msg/status.h>

static volatile sig_atomic_t g_stop = 0;

static void on_signal(int sig)
{
  (void)sig;
  g_stop = 1;
}

static int64_t now_ns(void)
{
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

// --- message types ---------------------------------------------------------------------------

// The hb50_commons types are compiled in (their C type support and a way to make a
// zero-initialised message); any other "pkg/msg/Type" is looked up at run time in
// lib<pkg>__rosidl_typesupport_c.so, and its publishers need --data.
typedef struct
{
  const char * name;
  const rosidl_message_type_support_t * (*type_support)(void);
  void * (*create)(void);
  void (*destroy)(void *);
} known_type_t;

#define HB50_TYPE(Type) \
  static const rosidl_message_type_support_t * ts_ ## Type(void) \
  { \
    return ROSIDL_GET_MSG_TYPE_SUPPORT(hb50_commons, msg, Type); \
  } \
  static void * create_ ## Type(void) {return hb50_commons__msg__ ## Type ## __create();} \
  static void destroy_ ## Type(void * m) \
  { \
    hb50_commons__msg__ ## Type ## __destroy((hb50_commons__msg__ ## Type *)m); \
  }

HB50_TYPE(BridgeData)
HB50_TYPE(BridgeState)
HB50_TYPE(JointCommand)
HB50_TYPE(RobotState)
HB50_TYPE(Status)

#define HB50_ENTRY(Type) \
  {"hb50_commons/msg/" #Type, ts_ ## Type, create_ ## Type, destroy_ ## Type}

static const known_type_t KNOWN_TYPES[] = {
  HB50_ENTRY(BridgeData),
  HB50_ENTRY(BridgeState),
  HB50_ENTRY(JointCommand),
  HB50_ENTRY(RobotState),
  HB50_ENTRY(Status),
};

typedef const rosidl_message_type_support_t * (*type_support_getter_t)(void);

// Split "pkg/msg/Type" (or "pkg/Type") into its three parts; false when malformed.
static bool split_type(
  const char * type, char * pkg, char * kind, char * name, size_t size)
{
  const char * a = strchr(type, '/');
  if (a == NULL || a == type) {return false;}
  const char * b = strchr(a + 1, '/');
  const char * k = "msg";
  size_t klen = 3;
  const char * n = a + 1;
  if (b != NULL) {
    k = a + 1;
    klen = (size_t)(b - k);
    n = b + 1;
  }
  size_t plen = (size_t)(a - type);
  if (plen >= size || klen >= size || strlen(n) >= size || *n == '\0' || strchr(n, '/')) {
    return false;
  }
  memcpy(pkg, type, plen);
  pkg[plen] = '\0';
  memcpy(kind, k, klen);
  kind[klen] = '\0';
  strcpy(name, n);
  return true;
}

// The type support of `type` and, for a compiled-in type, its known_type_t (else NULL).
static const rosidl_message_type_support_t * find_type(
  const char * type, const known_type_t ** known)
{
  *known = NULL;
  for (size_t i = 0; i < sizeof(KNOWN_TYPES) / sizeof(KNOWN_TYPES[0]); ++i) {
    if (strcmp(KNOWN_TYPES[i].name, type) == 0) {
      *known = &KNOWN_TYPES[i];
      return KNOWN_TYPES[i].type_support();
    }
  }
  char pkg[128], kind[128], name[128], lib[512], sym[512];
  if (!split_type(type, pkg, kind, name, sizeof(pkg))) {
    fprintf(stderr, "rcl_floor: bad type name '%s' (want pkg/msg/Type)\n", type);
    return NULL;
  }
  snprintf(lib, sizeof(lib), "lib%s__rosidl_typesupport_c.so", pkg);
  snprintf(sym, sizeof(sym), "rosidl_typesupport_c__get_message_type_support_handle__%s__%s__%s",
    pkg, kind, name);
  void * handle = dlopen(lib, RTLD_NOW | RTLD_GLOBAL);   // kept open until exit
  if (handle == NULL) {
    fprintf(stderr, "rcl_floor: type %s: %s\n", type, dlerror());
    return NULL;
  }
  type_support_getter_t getter;
  void * address = dlsym(handle, sym);
  if (address == NULL) {
    fprintf(stderr, "rcl_floor: type %s: %s\n", type, dlerror());
    return NULL;
  }
  memcpy(&getter, &address, sizeof(getter));   // object pointer -> function pointer (POSIX)
  return getter();
}

// --- command line ----------------------------------------------------------------------------

#define MAX_SPECS 32

typedef struct
{
  const char * type;
  const char * topic;
  const char * file;   // publishers: the serialized message, or NULL (zero-initialised)
} spec_t;

typedef struct
{
  int publishers;
  const char * pub_topic;
  const char * pub_type;
  const char * data_file;
  int subscriptions;
  const char * sub_topic;
  const char * sub_type;
  double rate;
  int every;
  double duration;
  bool reliable;
  int depth;
  const char * node_name;
  const char * node_namespace;
  spec_t pub_specs[MAX_SPECS];
  int n_pub_specs;
  spec_t sub_specs[MAX_SPECS];
  int n_sub_specs;
  char * spec_text[2 * MAX_SPECS];   // copies the specs point into (freed at exit)
  int n_spec_text;
} options_t;

static void usage(FILE * out)
{
  fprintf(out,
    "usage: rcl_floor [options] [--ros-args ...]\n"
    "A C node on rcl: N publishers of pre-serialized messages at R Hz (absolute deadlines)\n"
    "and M raw subscriptions taken in an rcl wait set timed out at the next deadline.\n"
    "  --publishers N      publishers (default 3); 0 for none\n"
    "  --pub-topic NAME    their topic: NAME with one publisher, NAME_0.. NAME_<N-1> with\n"
    "                      more (default rcl_floor/out)\n"
    "  --pub-type TYPE     pkg/msg/Type (default hb50_commons/msg/BridgeData)\n"
    "  --data FILE         the serialized message to publish (CDR with its 4-byte\n"
    "                      encapsulation header, e.g. rclpy's serialize_message); default:\n"
    "                      a zero-initialised message (hb50_commons types only)\n"
    "  --subscriptions M   raw subscriptions (default 1); 0 for none\n"
    "  --sub-topic NAME    their topic, named as --pub-topic (default rcl_floor/in)\n"
    "  --sub-type TYPE     pkg/msg/Type (default hb50_commons/msg/JointCommand)\n"
    "  --rate HZ           tick rate (default 500)\n"
    "  --every K           publish on every K-th tick only (default 1)\n"
    "  --duration S        stop after S seconds (default 0: at SIGINT/SIGTERM)\n"
    "  --reliable          RELIABLE (default BEST_EFFORT; KEEP_LAST, VOLATILE either way)\n"
    "  --depth N           history depth (default 1: with best effort, the mabRT profile)\n"
    "  --name NAME         node name (default rcl_floor)\n"
    "  --namespace NS      node namespace (default /)\n"
    "  --pub TYPE:TOPIC[:FILE]  one publisher of TYPE on TOPIC publishing FILE (as --data);\n"
    "                      repeatable (at most 32); any --pub replaces --publishers and\n"
    "                      --pub-topic/--pub-type/--data\n"
    "  --sub TYPE:TOPIC    one raw subscription of TYPE on TOPIC; repeatable (at most 32);\n"
    "                      any --sub replaces --subscriptions and --sub-topic/--sub-type\n");
}

static bool parse_int(const char * s, int * out)
{
  char * end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || *end != '\0' || v < 0 || v > 1000) {return false;}
  *out = (int)v;
  return true;
}

static bool parse_double(const char * s, double * out)
{
  char * end;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || *end != '\0' || !(v >= 0.0)) {return false;}
  *out = v;
  return true;
}

// Parse "TYPE:TOPIC" (or "TYPE:TOPIC:FILE" when with_file) into *spec, pointing into a
// copy of `text` kept in o->spec_text; false when malformed.
static bool parse_spec(options_t * o, const char * text, spec_t * spec, bool with_file)
{
  if (o->n_spec_text >= 2 * MAX_SPECS) {return false;}
  char * copy = strdup(text);
  if (copy == NULL) {return false;}
  o->spec_text[o->n_spec_text++] = copy;
  char * first = strchr(copy, ':');
  if (first == NULL || first == copy) {return false;}
  *first = '\0';
  char * second = strchr(first + 1, ':');
  if (second != NULL) {
    if (!with_file || second[1] == '\0') {return false;}
    *second = '\0';
  }
  if (first[1] == '\0') {return false;}
  *spec = (spec_t){copy, first + 1, second != NULL ? second + 1 : NULL};
  return true;
}

// 0: parsed; 1: --help shown; 2: usage error.
static int parse_options(int argc, char ** argv, options_t * o)
{
  memset(o, 0, sizeof(*o));
  o->publishers = 3;
  o->pub_topic = "rcl_floor/out";
  o->pub_type = "hb50_commons/msg/BridgeData";
  o->subscriptions = 1;
  o->sub_topic = "rcl_floor/in";
  o->sub_type = "hb50_commons/msg/JointCommand";
  o->rate = 500.0;
  o->every = 1;
  o->depth = 1;
  o->node_name = "rcl_floor";
  o->node_namespace = "/";
  for (int i = 1; i < argc; ++i) {
    const char * a = argv[i];
    if (strcmp(a, "--ros-args") == 0) {break;}   // the rest is rcl's
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      usage(stdout);
      return 1;
    }
    if (strcmp(a, "--reliable") == 0) {
      o->reliable = true;
      continue;
    }
    if (i + 1 >= argc) {
      fprintf(stderr, "rcl_floor: configuration error: %s: missing value or unknown flag\n", a);
      return 2;
    }
    const char * v = argv[++i];
    bool ok = true;
    if (strcmp(a, "--publishers") == 0) {
      ok = parse_int(v, &o->publishers);
    } else if (strcmp(a, "--pub-topic") == 0) {
      o->pub_topic = v;
    } else if (strcmp(a, "--pub-type") == 0) {
      o->pub_type = v;
    } else if (strcmp(a, "--data") == 0) {
      o->data_file = v;
    } else if (strcmp(a, "--subscriptions") == 0) {
      ok = parse_int(v, &o->subscriptions);
    } else if (strcmp(a, "--sub-topic") == 0) {
      o->sub_topic = v;
    } else if (strcmp(a, "--sub-type") == 0) {
      o->sub_type = v;
    } else if (strcmp(a, "--rate") == 0) {
      ok = parse_double(v, &o->rate) && o->rate > 0.0 && o->rate <= 100000.0;
    } else if (strcmp(a, "--every") == 0) {
      ok = parse_int(v, &o->every) && o->every >= 1;
    } else if (strcmp(a, "--duration") == 0) {
      ok = parse_double(v, &o->duration);
    } else if (strcmp(a, "--depth") == 0) {
      ok = parse_int(v, &o->depth) && o->depth >= 1;
    } else if (strcmp(a, "--name") == 0) {
      o->node_name = v;
    } else if (strcmp(a, "--namespace") == 0) {
      o->node_namespace = v;
    } else if (strcmp(a, "--pub") == 0) {
      ok = o->n_pub_specs < MAX_SPECS &&
        parse_spec(o, v, &o->pub_specs[o->n_pub_specs], true);
      o->n_pub_specs += ok ? 1 : 0;
    } else if (strcmp(a, "--sub") == 0) {
      ok = o->n_sub_specs < MAX_SPECS &&
        parse_spec(o, v, &o->sub_specs[o->n_sub_specs], false);
      o->n_sub_specs += ok ? 1 : 0;
    } else {
      fprintf(stderr, "rcl_floor: configuration error: unknown flag %s (see --help)\n", a);
      return 2;
    }
    if (!ok) {
      fprintf(stderr, "rcl_floor: configuration error: bad value for %s: %s\n", a, v);
      return 2;
    }
  }
  // Without specs, the N same-type entities of the flags become specs.
  if (o->n_pub_specs == 0) {
    if (o->publishers > MAX_SPECS) {
      fprintf(stderr, "rcl_floor: configuration error: at most %d publishers\n", MAX_SPECS);
      return 2;
    }
    for (int i = 0; i < o->publishers; ++i) {
      o->pub_specs[i] = (spec_t){o->pub_type, NULL, o->data_file};
    }
    o->n_pub_specs = o->publishers;
  }
  if (o->n_sub_specs == 0) {
    if (o->subscriptions > MAX_SPECS) {
      fprintf(stderr, "rcl_floor: configuration error: at most %d subscriptions\n",
        MAX_SPECS);
      return 2;
    }
    for (int i = 0; i < o->subscriptions; ++i) {
      o->sub_specs[i] = (spec_t){o->sub_type, NULL, NULL};
    }
    o->n_sub_specs = o->subscriptions;
  }
  return 0;
}

static void free_options(options_t * o)
{
  for (int i = 0; i < o->n_spec_text; ++i) {free(o->spec_text[i]);}
  o->n_spec_text = 0;
}

// The topic of entity i of n: `base` itself when n == 1, else base_i.
static char * topic_name(const char * base, int i, int n)
{
  size_t size = strlen(base) + 16;
  char * out = malloc(size);
  if (out == NULL) {return NULL;}
  if (n == 1) {
    snprintf(out, size, "%s", base);
  } else {
    snprintf(out, size, "%s_%d", base, i);
  }
  return out;
}

// --- the serialized message to publish -------------------------------------------------------

static bool read_file(const char * path, rcl_serialized_message_t * msg, rcutils_allocator_t a)
{
  FILE * f = fopen(path, "rb");
  if (f == NULL) {
    fprintf(stderr, "rcl_floor: %s: %s\n", path, strerror(errno));
    return false;
  }
  bool ok = false;
  if (fseek(f, 0, SEEK_END) == 0) {
    long size = ftell(f);
    if (size > 0 && fseek(f, 0, SEEK_SET) == 0 &&
      rmw_serialized_message_init(msg, (size_t)size, &a) == RMW_RET_OK)
    {
      ok = fread(msg->buffer, 1, (size_t)size, f) == (size_t)size;
      msg->buffer_length = ok ? (size_t)size : 0;
    }
  }
  fclose(f);
  if (!ok) {fprintf(stderr, "rcl_floor: could not read %s (empty?)\n", path);}
  return ok;
}

static bool zero_message(
  const known_type_t * known, const rosidl_message_type_support_t * ts,
  rcl_serialized_message_t * msg, rcutils_allocator_t a)
{
  if (known == NULL) {
    fprintf(stderr, "rcl_floor: publishers of a type not compiled in need --data\n");
    return false;
  }
  if (rmw_serialized_message_init(msg, 0, &a) != RMW_RET_OK) {return false;}
  void * ros_message = known->create();
  if (ros_message == NULL) {return false;}
  rmw_ret_t ret = rmw_serialize(ros_message, ts, msg);
  known->destroy(ros_message);
  if (ret != RMW_RET_OK) {
    fprintf(stderr, "rcl_floor: rmw_serialize: %s\n", rmw_get_error_string().str);
    rmw_reset_error();
    return false;
  }
  return true;
}

// --- main ------------------------------------------------------------------------------------

#define CHECK(call, what) \
  do { \
    rcl_ret_t rc_ = (call); \
    if (rc_ != RCL_RET_OK) { \
      fprintf(stderr, "rcl_floor: %s failed: %s\n", (what), rcl_get_error_string().str); \
      rcl_reset_error(); \
      goto cleanup; \
    } \
  } while (0)

int main(int argc, char ** argv)
{
  static options_t o;
  int parsed = parse_options(argc, argv, &o);
  if (parsed != 0) {
    free_options(&o);
    return parsed == 1 ? 0 : 2;
  }

  // Our own handlers, installed before anything else: the process exits 0 on SIGINT and
  // SIGTERM even when it was started with SIGINT ignored.
  struct sigaction sa;
  memset(&sa, 0, sizeof(sa));
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);

  int status = 1;
  rcutils_allocator_t allocator = rcutils_get_default_allocator();
  rcl_context_t context = rcl_get_zero_initialized_context();
  rcl_init_options_t init_options = rcl_get_zero_initialized_init_options();
  rcl_node_t node = rcl_get_zero_initialized_node();
  rcl_wait_set_t wait_set = rcl_get_zero_initialized_wait_set();
  rcl_serialized_message_t data[MAX_SPECS];
  for (int i = 0; i < MAX_SPECS; ++i) {data[i] = rmw_get_zero_initialized_serialized_message();}
  rcl_serialized_message_t taken_msg = rmw_get_zero_initialized_serialized_message();
  int n_pub = o.n_pub_specs, n_sub = o.n_sub_specs;
  rcl_publisher_t * pubs = calloc((size_t)n_pub + 1, sizeof(rcl_publisher_t));
  rcl_subscription_t * subs = calloc((size_t)n_sub + 1, sizeof(rcl_subscription_t));
  char ** pub_topics = calloc((size_t)n_pub + 1, sizeof(char *));
  char ** sub_topics = calloc((size_t)n_sub + 1, sizeof(char *));
  uint64_t * published = calloc((size_t)n_pub + 1, sizeof(uint64_t));
  uint64_t * taken = calloc((size_t)n_sub + 1, sizeof(uint64_t));
  int pubs_made = 0, subs_made = 0;
  bool context_ok = false, node_ok = false, wait_set_ok = false;
  uint64_t ticks = 0, late = 0, publish_errors = 0, take_errors = 0;
  int64_t started = 0, stopped = 0;
  if (!pubs || !subs || !pub_topics || !sub_topics || !published || !taken) {
    fprintf(stderr, "rcl_floor: out of memory\n");
    goto cleanup;
  }

  CHECK(rcl_init_options_init(&init_options, allocator), "rcl_init_options_init");
  CHECK(rcl_init(argc, (const char * const *)argv, &init_options, &context), "rcl_init");
  context_ok = true;
  rcl_node_options_t node_options = rcl_node_get_default_options();
  CHECK(rcl_node_init(&node, o.node_name, o.node_namespace, &context, &node_options),
    "rcl_node_init");
  node_ok = true;

  rmw_qos_profile_t qos = rmw_qos_profile_default;
  qos.history = RMW_QOS_POLICY_HISTORY_KEEP_LAST;
  qos.depth = (size_t)o.depth;
  qos.reliability = o.reliable ?
    RMW_QOS_POLICY_RELIABILITY_RELIABLE : RMW_QOS_POLICY_RELIABILITY_BEST_EFFORT;
  qos.durability = RMW_QOS_POLICY_DURABILITY_VOLATILE;

  const known_type_t * known = NULL;
  for (int i = 0; i < n_pub; ++i) {
    const spec_t * spec = &o.pub_specs[i];
    const rosidl_message_type_support_t * ts = find_type(spec->type, &known);
    if (ts == NULL) {goto cleanup;}
    if (!(spec->file ? read_file(spec->file, &data[i], allocator) :
      zero_message(known, ts, &data[i], allocator)))
    {
      goto cleanup;
    }
    pub_topics[i] = spec->topic ? strdup(spec->topic) : topic_name(o.pub_topic, i, n_pub);
    rcl_publisher_options_t options = rcl_publisher_get_default_options();
    options.qos = qos;
    pubs[i] = rcl_get_zero_initialized_publisher();
    CHECK(rcl_publisher_init(&pubs[i], &node, ts, pub_topics[i], &options),
      "rcl_publisher_init");
    pubs_made = i + 1;
  }
  if (n_sub > 0) {
    for (int i = 0; i < n_sub; ++i) {
      const spec_t * spec = &o.sub_specs[i];
      const rosidl_message_type_support_t * ts = find_type(spec->type, &known);
      if (ts == NULL) {goto cleanup;}
      sub_topics[i] = spec->topic ? strdup(spec->topic) : topic_name(o.sub_topic, i, n_sub);
      rcl_subscription_options_t options = rcl_subscription_get_default_options();
      options.qos = qos;
      subs[i] = rcl_get_zero_initialized_subscription();
      CHECK(rcl_subscription_init(&subs[i], &node, ts, sub_topics[i], &options),
        "rcl_subscription_init");
      subs_made = i + 1;
    }
    CHECK(rcl_wait_set_init(&wait_set, (size_t)n_sub, 0, 0, 0, 0, 0, &context, allocator),
      "rcl_wait_set_init");
    wait_set_ok = true;
    if (rmw_serialized_message_init(&taken_msg, 1024, &allocator) != RMW_RET_OK) {
      goto cleanup;
    }
  }

  printf("rcl_floor: running: %d publishers (every %d ticks), %d subscriptions at %g Hz, "
    "%s depth %d\n", n_pub, o.every, n_sub, o.rate,
    o.reliable ? "reliable" : "best effort", o.depth);
  for (int i = 0; i < n_pub; ++i) {
    printf("rcl_floor: publisher of %s (%zu bytes) on %s\n", o.pub_specs[i].type,
      data[i].buffer_length, pub_topics[i]);
  }
  for (int i = 0; i < n_sub; ++i) {
    printf("rcl_floor: subscription of %s on %s\n", o.sub_specs[i].type, sub_topics[i]);
  }
  fflush(stdout);

  const int64_t period = (int64_t)(1e9 / o.rate);
  started = now_ns();
  const int64_t end = o.duration > 0.0 ? started + (int64_t)(o.duration * 1e9) : INT64_MAX;
  int64_t next = started + period;
  while (!g_stop) {
    int64_t now = now_ns();
    if (now >= end) {break;}
    if (now >= next) {
      // The tick: every publisher publishes its pre-serialized bytes (every K-th tick).
      for (int i = 0; ticks % (uint64_t)o.every == 0 && i < n_pub; ++i) {
        if (rcl_publish_serialized_message(&pubs[i], &data[i], NULL) == RCL_RET_OK) {
          ++published[i];
        } else {
          ++publish_errors;
          rcl_reset_error();
        }
      }
      ++ticks;
      next += period;
      if (now >= next) {   // more than a period behind (a stall): skip, do not burst
        ++late;
        next = now + period;
      }
      continue;
    }
    if (n_sub == 0) {
      struct timespec ts = {(time_t)(next / 1000000000LL), (long)(next % 1000000000LL)};
      clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
      continue;
    }
    // Wait for input until the next deadline, then take every waiting sample.
    CHECK(rcl_wait_set_clear(&wait_set), "rcl_wait_set_clear");
    for (int i = 0; i < n_sub; ++i) {
      CHECK(rcl_wait_set_add_subscription(&wait_set, &subs[i], NULL),
        "rcl_wait_set_add_subscription");
    }
    rcl_ret_t ret = rcl_wait(&wait_set, next - now);
    if (ret == RCL_RET_TIMEOUT) {continue;}
    if (ret != RCL_RET_OK) {
      fprintf(stderr, "rcl_floor: rcl_wait failed: %s\n", rcl_get_error_string().str);
      rcl_reset_error();
      goto cleanup;
    }
    for (int i = 0; i < n_sub; ++i) {
      if (wait_set.subscriptions[i] == NULL) {continue;}
      for (;;) {
        rmw_message_info_t info = rmw_get_zero_initialized_message_info();
        ret = rcl_take_serialized_message(&subs[i], &taken_msg, &info, NULL);
        if (ret == RCL_RET_OK) {
          ++taken[i];
          continue;
        }
        if (ret != RCL_RET_SUBSCRIPTION_TAKE_FAILED) {
          ++take_errors;
          rcl_reset_error();
        }
        break;
      }
    }
  }
  stopped = now_ns();
  status = 0;

cleanup:
  if (status == 0) {
    double elapsed = (double)(stopped - started) / 1e9;
    uint64_t total_pub = 0, total_taken = 0;
    for (int i = 0; i < n_pub; ++i) {
      printf("rcl_floor: published %" PRIu64 " on %s\n", published[i], pub_topics[i]);
      total_pub += published[i];
    }
    for (int i = 0; i < n_sub; ++i) {
      printf("rcl_floor: taken %" PRIu64 " on %s\n", taken[i], sub_topics[i]);
      total_taken += taken[i];
    }
    printf("rcl_floor: %.3f s, %" PRIu64 " ticks (%.1f Hz), %" PRIu64 " late, published %"
      PRIu64 ", taken %" PRIu64 ", errors publish %" PRIu64 " take %" PRIu64 "\n",
      elapsed, ticks, elapsed > 0 ? (double)ticks / elapsed : 0.0, late, total_pub,
      total_taken, publish_errors, take_errors);
    fflush(stdout);
  }
  if (wait_set_ok && rcl_wait_set_fini(&wait_set) != RCL_RET_OK) {rcl_reset_error();}
  for (int i = 0; i < subs_made; ++i) {
    if (rcl_subscription_fini(&subs[i], &node) != RCL_RET_OK) {rcl_reset_error();}
  }
  for (int i = 0; i < pubs_made; ++i) {
    if (rcl_publisher_fini(&pubs[i], &node) != RCL_RET_OK) {rcl_reset_error();}
  }
  if (node_ok && rcl_node_fini(&node) != RCL_RET_OK) {rcl_reset_error();}
  if (context_ok) {
    if (rcl_shutdown(&context) != RCL_RET_OK) {rcl_reset_error();}
    if (rcl_context_fini(&context) != RCL_RET_OK) {rcl_reset_error();}
  }
  if (init_options.impl != NULL && rcl_init_options_fini(&init_options) != RCL_RET_OK) {
    rcl_reset_error();
  }
  for (int i = 0; i < MAX_SPECS; ++i) {
    if (data[i].buffer != NULL) {rmw_serialized_message_fini(&data[i]);}
  }
  if (taken_msg.buffer != NULL) {rmw_serialized_message_fini(&taken_msg);}
  for (int i = 0; pub_topics && i < n_pub; ++i) {free(pub_topics[i]);}
  for (int i = 0; sub_topics && i < n_sub; ++i) {free(sub_topics[i]);}
  free(pubs);
  free(subs);
  free(pub_topics);
  free(sub_topics);
  free(published);
  free(taken);
  free_options(&o);
  return status;
}
