package dev.stele.k8s.testing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.APIGroupBuilder;
import io.fabric8.kubernetes.api.model.APIGroupListBuilder;
import io.fabric8.kubernetes.api.model.APIResourceBuilder;
import io.fabric8.kubernetes.api.model.APIResourceListBuilder;
import io.fabric8.kubernetes.api.model.APIVersionsBuilder;
import io.fabric8.kubernetes.api.model.GroupVersionForDiscoveryBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.io.Closeable;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * fabric8's CRUD mock API server, extended with what a production client (the operator with
 * server-side apply on, kubectl) asks of a real one:
 *
 * <ul>
 *   <li><b>Discovery</b> ({@code /api}, {@code /api/v1}, {@code /apis}, {@code /apis/G/V}): the
 *       built-in types below, and every CRD created in the server.
 *   <li><b>Apply patches</b> ({@code application/apply-patch+yaml}, on an object or its {@code
 *       /status}): an absent object is created; into an existing one the applied configuration is
 *       merged (RFC 7386) and the result stored as an update would be, and a field the same field
 *       manager applied last time and leaves out now is removed, as a real server removes fields a
 *       manager gives up.
 *   <li><b>CustomResourceDefinitions</b>: a created CRD reports {@code NamesAccepted} and {@code
 *       Established} in {@code status.conditions} (kept as they are by an update of the CRD, as its
 *       status is a subresource), both True unless another CRD of its group already has its kind
 *       (then both False, reason {@code KindConflict}), and its types are served only once
 *       Established; a test may make establishing take a while ({@link #establishAfter}), as it
 *       does on a real server. A request for a type of a custom API group (not Kubernetes' own) the
 *       server does not serve (no Established CRD) fails with 404 "the server could not find the
 *       requested resource", as a real server's does; the groups given to the constructor (by
 *       default {@code stele.dev}, the project's own) are served as if their CRDs were installed.
 *   <li><b>A record of creates</b> ({@link #created}), in the order the server made them.
 *   <li><b>Set-based label selectors</b> on lists ({@code in}, {@code notin}, {@code !=}, {@code
 *       !key}), evaluated as a real server does ({@link LabelQuery}); the mock alone reads only
 *       equality and existence and selects everything for the rest. Watches keep the mock's
 *       reading.
 *   <li><b>SelfSubjectRulesReview</b>: every verb on every resource. The server authorizes
 *       everything (no RBAC), and says so to a client that asks what it may do (java-operator-sdk's
 *       leader election asks about Leases before it starts).
 *   <li><b>{@code pods/exec}</b>: a WebSocket upgrade speaking the channel protocol, where what a
 *       command does in a container is what the test says ({@link #onExec}); a missing pod or
 *       container is refused as a real server refuses it ({@link ExecEndpoint}).
 * </ul>
 *
 * <p>Simplified, compared with a real server: one owner per field is not tracked across managers
 * (an apply always wins, as with {@code force=true}: no conflicts are ever reported); lists are
 * atomic (replaced whole, where a real server merges {@code listType: map} lists by key); {@code
 * managedFields} are not written into objects. The stele operator is the only field manager of the
 * fields it applies, so none of this changes what it sees.
 *
 * <p>Concurrency: requests come on the mock server's threads; applies are serialized (each reads,
 * then writes conditionally on the version it read, so a write by another client in between fails
 * the apply with 409 instead of being lost), and the CRUD dispatcher locks its own store.
 */
public final class ApiServer implements Closeable {
  private static final String APPLY = "application/apply-patch+yaml";
  private static final String RULES_REVIEW =
      "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews";
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern OBJECT = Pattern.compile("^(/apis?/.+?)/([a-z0-9.-]+)(/status)?$");

  /** group/version, plural, kind, namespaced: the built-in types the server lists. */
  private record Type(String groupVersion, String plural, String kind, boolean namespaced) {}

  private static final List<Type> BUILT_IN =
      List.of(
          new Type("v1", "namespaces", "Namespace", false),
          new Type("v1", "secrets", "Secret", true),
          new Type("v1", "configmaps", "ConfigMap", true),
          new Type("v1", "serviceaccounts", "ServiceAccount", true),
          new Type("v1", "pods", "Pod", true),
          new Type("v1", "persistentvolumeclaims", "PersistentVolumeClaim", true),
          new Type("v1", "persistentvolumes", "PersistentVolume", false),
          new Type("storage.k8s.io/v1", "storageclasses", "StorageClass", false),
          new Type("v1", "services", "Service", true),
          new Type("v1", "events", "Event", true),
          new Type("apps/v1", "deployments", "Deployment", true),
          new Type("apps/v1", "daemonsets", "DaemonSet", true),
          new Type("rbac.authorization.k8s.io/v1", "roles", "Role", true),
          new Type("rbac.authorization.k8s.io/v1", "rolebindings", "RoleBinding", true),
          new Type("rbac.authorization.k8s.io/v1", "clusterroles", "ClusterRole", false),
          new Type(
              "rbac.authorization.k8s.io/v1", "clusterrolebindings", "ClusterRoleBinding", false),
          new Type("coordination.k8s.io/v1", "leases", "Lease", true),
          new Type(
              "apiextensions.k8s.io/v1",
              "customresourcedefinitions",
              "CustomResourceDefinition",
              false));

  private static final String CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
  private static final Pattern GROUP_PATH = Pattern.compile("^/apis/([^/]+)/([^/]+)/(.+)$");

  /** The API group served as if its CRDs were installed unless a test says otherwise. */
  public static final String STELE_GROUP = "stele.dev";

  private final KubernetesMockServer server;
  private final ExecEndpoint exec = new ExecEndpoint();
  private final Dispatcher dispatcher;

  /** A server on a free port of the loopback interface. */
  public ApiServer() {
    this(0);
  }

  /** A server on {@code port} of the loopback interface (0: any free one). */
  public ApiServer(int port) {
    this(port, Set.of(STELE_GROUP));
  }

  /**
   * A server on {@code port} of the loopback interface (0: any free one) that serves the API groups
   * {@code installed} as if their CRDs were installed, and other custom groups only once their CRDs
   * are created.
   */
  public ApiServer(int port, Set<String> installed) {
    dispatcher = new Dispatcher(Set.copyOf(installed), exec);
    server =
        new KubernetesMockServer(
            new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
    try {
      server.init(InetAddress.getLoopbackAddress(), port);
    } catch (RuntimeException e) {
      throw new IllegalStateException("cannot start the test API server on port " + port, e);
    }
  }

  /**
   * From now on, a CRD created without a name conflict is Established only {@code delay} after its
   * creation (until then {@code Established=False}, reason {@code Installing}, and its types are
   * not served), as a real server takes a moment to serve a new type.
   */
  public void establishAfter(Duration delay) {
    dispatcher.establishDelay = delay;
  }

  /**
   * The path of every object created so far, in the order the server created them: {@code
   * /api/v1/namespaces/app/persistentvolumeclaims/data}.
   */
  public List<String> created() {
    return List.copyOf(dispatcher.created);
  }

  /** A new client of this server; its caller closes it. */
  public KubernetesClient client() {
    return server.createClient();
  }

  /** {@code http://localhost:PORT}: the loopback interface. */
  public String url() {
    return "http://" + server.getHostName() + ":" + server.getPort();
  }

  /**
   * What running a command in a container does from now on ({@code pods/exec}). Until a test says,
   * every command fails as one a container lacks does (exit code 127).
   */
  public void onExec(ExecHandler handler) {
    exec.handler(handler);
  }

  @Override
  public void close() {
    server.destroy();
    exec.close();
  }

  private static final class Dispatcher extends KubernetesCrudDispatcher {
    /** The configuration last applied, by object path (status separately) and field manager. */
    private final Map<String, JsonNode> lastApplied = new ConcurrentHashMap<>();

    private final Set<String> installed;
    private final List<String> created = new CopyOnWriteArrayList<>();

    /**
     * CRDs created but not Established yet: when they will be, by name ({@link System#nanoTime}).
     */
    private final Map<String, Long> installing = new ConcurrentHashMap<>();

    private volatile Duration establishDelay = Duration.ZERO;

    private final ExecEndpoint exec;

    Dispatcher(Set<String> installed, ExecEndpoint exec) {
      this.installed = installed;
      this.exec = exec;
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
      establishDue();
      MockResponse response = handle(request);
      if (request.getMethod().equals("POST") && response.code() < 300) {
        String path = request.getPath();
        String bare = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
        String body = response.getBody().readUtf8(); // reading empties it: put it back
        response.setBody(body);
        JsonNode name = tree(body).path("metadata").path("name");
        if (name.isTextual()) {
          created.add(bare + "/" + name.asText());
        }
      }
      return response;
    }

    /** Marks Established every installing CRD whose time has come. */
    private synchronized void establishDue() {
      long now = System.nanoTime();
      for (Map.Entry<String, Long> e : List.copyOf(installing.entrySet())) {
        if (now - e.getValue() < 0) {
          continue;
        }
        installing.remove(e.getKey());
        MockResponse live = handleGet(CRDS + "/" + e.getKey());
        if (live.code() == 200) {
          JsonNode crd = tree(live.getBody().readUtf8());
          for (JsonNode c : crd.path("status").path("conditions")) {
            if (c.path("type").asText().equals("Established") && c instanceof ObjectNode o) {
              o.put("status", "True");
              o.put("reason", "InitialNamesAccepted");
              o.put("message", "the initial names have been accepted");
            }
          }
          super.dispatch(request("PUT", CRDS + "/" + e.getKey(), "application/json", crd));
        }
      }
    }

    private MockResponse handle(RecordedRequest request) {
      String path = request.getPath();
      String bare = path.contains("?") ? path.substring(0, path.indexOf('?')) : path;
      if (ExecEndpoint.matches(request.getMethod(), bare)) {
        return exec.answer(request, bare, this::handleGet);
      }
      if (request.getMethod().equals("GET")) {
        MockResponse discovery = discovery(bare);
        if (discovery != null) {
          return discovery;
        }
        String selector = query(path, "labelSelector");
        if (!selector.isEmpty() && !query(path, "watch").equals("true")) {
          return selected(path, URLDecoder.decode(selector, StandardCharsets.UTF_8));
        }
      }
      if (request.getMethod().equals("POST") && bare.equals(CRDS)) {
        return super.dispatch(
            request("POST", path, "application/json", accepted(tree(request.getUtf8Body()))));
      }
      if (request.getMethod().equals("PUT") && bare.startsWith(CRDS + "/")) {
        return super.dispatch(request("PUT", path, "application/json", statusKept(request, bare)));
      }
      if (request.getMethod().equals("POST") && bare.equals(RULES_REVIEW)) {
        ObjectNode review = (ObjectNode) tree(request.getUtf8Body());
        ObjectNode rule = JSON.createObjectNode();
        rule.putArray("verbs").add("*");
        rule.putArray("apiGroups").add("*");
        rule.putArray("resources").add("*");
        ObjectNode status = review.putObject("status");
        status.putArray("resourceRules").add(rule);
        status.putArray("nonResourceRules");
        status.put("incomplete", false);
        return json(201, review.toString());
      }
      if (!served(bare)) {
        return json(
            404,
            "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\","
                + "\"message\":\"the server could not find the requested resource\","
                + "\"reason\":\"NotFound\",\"details\":{},\"code\":404}");
      }
      String type = request.getHeader("Content-Type");
      if (request.getMethod().equals("PATCH") && type != null && type.startsWith(APPLY)) {
        return apply(request, path, bare);
      }
      return super.dispatch(request);
    }

    /**
     * One apply at a time (a read, then a write conditional on the version read): a write by
     * another client in between makes this apply fail with 409, where a real server would merge.
     */
    private synchronized MockResponse apply(RecordedRequest request, String path, String bare) {
      Matcher m = OBJECT.matcher(bare);
      if (!m.matches()) {
        return json(400, "{\"kind\":\"Status\",\"message\":\"not an object: " + bare + "\"}");
      }
      JsonNode applied =
          JSON.valueToTree(SERIALIZATION.unmarshal(request.getUtf8Body(), Map.class));
      String manager = query(path, "fieldManager");
      String key = bare + " " + manager;
      MockResponse live = handleGet(m.group(1) + "/" + m.group(2));
      MockResponse response;
      if (live.code() == 404 && m.group(3) == null) {
        response = super.dispatch(request("POST", m.group(1), "application/json", applied));
      } else if (live.code() != 200) {
        return live;
      } else {
        // RFC 7386 applied here: the mock's own merge patch keeps null map values.
        JsonNode merged =
            mergeInto(tree(live.getBody().readUtf8()), mergePatch(lastApplied.get(key), applied));
        response = super.dispatch(request("PUT", bare, "application/json", merged));
      }
      if (response.code() < 300) {
        lastApplied.put(key, applied);
      }
      return response;
    }

    /**
     * A list filtered by its label selector as a real server filters it ({@link LabelQuery}): the
     * mock lists without the selector, then the items it does not select are left out.
     */
    private MockResponse selected(String path, String selector) {
      LabelQuery query;
      try {
        query = LabelQuery.parse(selector);
      } catch (IllegalArgumentException e) {
        ObjectNode status =
            JSON.createObjectNode()
                .put("kind", "Status")
                .put("apiVersion", "v1")
                .put("status", "Failure")
                .put("reason", "BadRequest")
                .put("code", 400)
                .put("message", e.getMessage());
        return json(400, status.toString());
      }
      MockResponse all = super.dispatch(request("GET", without(path, "labelSelector")));
      if (all.code() != 200) {
        return all;
      }
      JsonNode list = tree(all.getBody().readUtf8());
      if (list.get("items") instanceof ArrayNode items) {
        for (Iterator<JsonNode> i = items.iterator(); i.hasNext(); ) {
          Map<String, String> labels = new HashMap<>();
          i.next()
              .path("metadata")
              .path("labels")
              .properties()
              .forEach(l -> labels.put(l.getKey(), l.getValue().asText()));
          if (!query.selects(labels)) {
            i.remove();
          }
        }
      }
      return json(200, list.toString());
    }

    private @Nullable MockResponse discovery(String path) {
      if (path.equals("/api")) {
        return json(200, SERIALIZATION.asJson(new APIVersionsBuilder().withVersions("v1").build()));
      }
      if (path.equals("/apis")) {
        var groups = new APIGroupListBuilder();
        for (String gv : groupVersions()) {
          if (!gv.equals("v1")) {
            var version =
                new GroupVersionForDiscoveryBuilder()
                    .withGroupVersion(gv)
                    .withVersion(gv.substring(gv.indexOf('/') + 1))
                    .build();
            groups.addToGroups(
                new APIGroupBuilder()
                    .withName(gv.substring(0, gv.indexOf('/')))
                    .withVersions(version)
                    .withPreferredVersion(version)
                    .build());
          }
        }
        return json(200, SERIALIZATION.asJson(groups.build()));
      }
      String gv =
          path.equals("/api/v1")
              ? "v1"
              : path.matches("^/apis/[^/]+/[^/]+$") ? path.substring("/apis/".length()) : null;
      if (gv == null || !groupVersions().contains(gv)) {
        return null;
      }
      var list = new APIResourceListBuilder().withGroupVersion(gv);
      for (Type t : types()) {
        if (t.groupVersion().equals(gv)) {
          list.addToResources(
              new APIResourceBuilder()
                  .withName(t.plural())
                  .withKind(t.kind())
                  .withNamespaced(t.namespaced())
                  .withSingularName("")
                  .withVerbs("create", "delete", "get", "list", "patch", "update", "watch")
                  .build());
        }
      }
      return json(200, SERIALIZATION.asJson(list.build()));
    }

    private List<String> groupVersions() {
      List<String> out = new ArrayList<>();
      for (Type t : types()) {
        if (!out.contains(t.groupVersion())) {
          out.add(t.groupVersion());
        }
      }
      return out;
    }

    /**
     * Whether a request for {@code path} reaches a type the server serves. Only custom groups (with
     * a dot, not Kubernetes' own {@code *.k8s.io}) are checked: a real server serves every built-in
     * group, of which the list above holds only the types tests use.
     */
    private boolean served(String path) {
      Matcher m = GROUP_PATH.matcher(path);
      if (!m.matches()) {
        return true;
      }
      String group = m.group(1);
      if (!group.contains(".") || group.endsWith(".k8s.io") || installed.contains(group)) {
        return true;
      }
      String[] rest = m.group(3).split("/", -1);
      String plural = rest[0].equals("namespaces") && rest.length >= 3 ? rest[2] : rest[0];
      String gv = group + "/" + m.group(2);
      return types().stream()
          .anyMatch(t -> t.groupVersion().equals(gv) && t.plural().equals(plural));
    }

    /**
     * {@code crd} as a real server makes it on create: its names accepted and the CRD Established,
     * unless another CRD of its group already has its kind.
     */
    private JsonNode accepted(JsonNode crd) {
      String group = crd.path("spec").path("group").asText();
      String kind = crd.path("spec").path("names").path("kind").asText();
      String name = crd.path("metadata").path("name").asText();
      String conflict = null;
      for (CustomResourceDefinition other : crds()) {
        if (other.getSpec().getGroup().equals(group)
            && other.getSpec().getNames().getKind().equals(kind)
            && !other.getMetadata().getName().equals(name)) {
          conflict = other.getMetadata().getName();
        }
      }
      ObjectNode status = ((ObjectNode) crd).putObject("status");
      String now = Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
      var conditions = status.putArray("conditions");
      for (String type : List.of("NamesAccepted", "Established")) {
        ObjectNode c = conditions.addObject();
        c.put("type", type);
        c.put("lastTransitionTime", now);
        if (conflict == null && type.equals("Established") && !establishDelay.isZero()) {
          c.put("status", "False");
          c.put("reason", "Installing");
          c.put("message", "the CRD is being installed");
          installing.put(name, System.nanoTime() + establishDelay.toNanos());
        } else if (conflict == null) {
          c.put("status", "True");
          c.put("reason", type.equals("Established") ? "InitialNamesAccepted" : "NoConflicts");
          c.put(
              "message",
              type.equals("Established")
                  ? "the initial names have been accepted"
                  : "no conflicts found");
        } else {
          c.put("status", "False");
          c.put("reason", type.equals("Established") ? "NotAccepted" : "KindConflict");
          c.put("message", "\"" + kind + "\" is already in use by " + conflict);
        }
      }
      if (conflict == null) {
        status.set("acceptedNames", crd.path("spec").path("names").deepCopy());
      }
      return crd;
    }

    private static boolean established(CustomResourceDefinition crd) {
      return crd.getStatus() != null
          && crd.getStatus().getConditions() != null
          && crd.getStatus().getConditions().stream()
              .anyMatch(c -> c.getType().equals("Established") && c.getStatus().equals("True"));
    }

    /**
     * The body of an update of a CRD with the stored object's status, which an update of a CRD
     * leaves as it is on a real server (its status is a subresource).
     */
    private JsonNode statusKept(RecordedRequest request, String path) {
      JsonNode body = tree(request.getUtf8Body());
      MockResponse live = handleGet(path);
      if (live.code() == 200 && body instanceof ObjectNode b) {
        JsonNode status = tree(live.getBody().readUtf8()).path("status");
        if (status.isMissingNode()) {
          b.remove("status");
        } else {
          b.set("status", status);
        }
      }
      return body;
    }

    private List<CustomResourceDefinition> crds() {
      MockResponse crds = handleGet(CRDS);
      if (crds.code() != 200) {
        return List.of();
      }
      return SERIALIZATION
          .unmarshal(crds.getBody().readUtf8(), CustomResourceDefinitionList.class)
          .getItems();
    }

    /** The built-in types and those of every Established CRD in the server. */
    private List<Type> types() {
      List<Type> out = new ArrayList<>(BUILT_IN);
      for (CustomResourceDefinition crd : crds()) {
        if (!established(crd)) {
          continue;
        }
        var spec = crd.getSpec();
        for (var v : spec.getVersions()) {
          out.add(
              new Type(
                  spec.getGroup() + "/" + v.getName(),
                  spec.getNames().getPlural(),
                  spec.getNames().getKind(),
                  "Namespaced".equals(spec.getScope())));
        }
      }
      return out;
    }
  }

  /**
   * The JSON merge patch (RFC 7386) that turns what a manager applied before into what it applies
   * now: every field of {@code now}, and null for each field of {@code before} that {@code now}
   * leaves out. Lists are values: replaced whole.
   */
  private static JsonNode mergePatch(@Nullable JsonNode before, JsonNode now) {
    if (!(now instanceof ObjectNode n) || !(before instanceof ObjectNode b)) {
      return now;
    }
    ObjectNode patch = n.deepCopy();
    for (Iterator<String> names = b.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (!n.has(name)) {
        patch.set(name, NullNode.getInstance());
      } else {
        patch.set(name, mergePatch(b.get(name), n.get(name)));
      }
    }
    return patch;
  }

  /** {@code patch} merged into {@code target} (RFC 7386): null removes, objects merge. */
  private static JsonNode mergeInto(JsonNode target, JsonNode patch) {
    if (!(patch instanceof ObjectNode p)) {
      return patch;
    }
    ObjectNode out = target instanceof ObjectNode t ? t.deepCopy() : JSON.createObjectNode();
    for (Map.Entry<String, JsonNode> f : p.properties()) {
      if (f.getValue().isNull()) {
        out.remove(f.getKey());
      } else {
        out.set(f.getKey(), mergeInto(out.get(f.getKey()), f.getValue()));
      }
    }
    return out;
  }

  private static RecordedRequest request(String method, String path, String type, JsonNode body) {
    byte[] bytes = body.toString().getBytes(StandardCharsets.UTF_8);
    Headers headers =
        Headers.builder()
            .add("Content-Type", type)
            .add("Content-Length", Integer.toString(bytes.length))
            .build();
    return new RecordedRequest(
        method + " " + path + " HTTP/1.1",
        io.fabric8.mockwebserver.dsl.HttpMethod.valueOf(method),
        path,
        headers,
        new Buffer(bytes));
  }

  private static RecordedRequest request(String method, String path) {
    return new RecordedRequest(
        method + " " + path + " HTTP/1.1",
        io.fabric8.mockwebserver.dsl.HttpMethod.valueOf(method),
        path,
        Headers.builder().build(),
        new Buffer(new byte[0]));
  }

  /** {@code path} without its query parameter {@code name}. */
  private static String without(String path, String name) {
    int q = path.indexOf('?');
    if (q < 0) {
      return path;
    }
    List<String> kept = new ArrayList<>();
    for (String pair : path.substring(q + 1).split("&", -1)) {
      if (!pair.equals(name) && !pair.startsWith(name + "=")) {
        kept.add(pair);
      }
    }
    return path.substring(0, q) + (kept.isEmpty() ? "" : "?" + String.join("&", kept));
  }

  private static MockResponse json(int code, String body) {
    return new MockResponse()
        .setResponseCode(code)
        .addHeader("Content-Type", "application/json")
        .setBody(body);
  }

  private static String query(String path, String name) {
    int q = path.indexOf('?');
    Map<String, String> params = new LinkedHashMap<>();
    if (q >= 0) {
      for (String pair : path.substring(q + 1).split("&", -1)) {
        int eq = pair.indexOf('=');
        params.put(eq < 0 ? pair : pair.substring(0, eq), eq < 0 ? "" : pair.substring(eq + 1));
      }
    }
    return params.getOrDefault(name, "");
  }

  private static JsonNode tree(String json) {
    try {
      return JSON.readTree(json);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
