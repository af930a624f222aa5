// Drives the reference server with go-gitlab (Debian's golang-github-xanzy-go-gitlab-dev, 0.7x), as a
// GitLab client would.
//
// Built by ruby-go.spec.ts in GOPATH mode from /usr/share/gocode (no network) and run with GITLAB_URL,
// GITLAB_TOKEN (the administrator's, with the sudo scope) and GITLAB_FIXTURES (the fixture manifest).
// Builds its own users, group and project through the API, then drives the 47 endpoint forms: through
// go-gitlab's services where it has them, through Client.NewRequest and Do where it has not. go-gitlab
// sends list filters in Rack's bracket form (`user_ids[]=…`), bodies as JSON, and sudo as the `Sudo`
// header (WithSudo). Prints one JSON line per check: {"form", "via", "ok", "detail"}.
package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"sort"
	"strings"

	gitlab "github.com/xanzy/go-gitlab"
)

const (
	file    = "/projects/:id/repository/files/:file_path"
	mirrors = "/projects/:id/remote_mirrors"
	mirror  = "/projects/:id/remote_mirrors/:mirror_id"
)

var failures = 0

func emit(form, via string, ok bool, detail string) {
	if !ok {
		failures++
	}
	line, _ := json.Marshal(map[string]interface{}{"form": form, "via": via, "ok": ok, "detail": detail})
	fmt.Println(string(line))
}

// check runs fn; a non-nil error is a failed check.
func check(form, via string, fn func() error) {
	if err := fn(); err != nil {
		emit(form, via, false, err.Error())
		return
	}
	emit(form, via, true, "")
}

// expectStatus runs fn, which must fail with an HTTP error of this status (and a message containing text).
func expectStatus(form, via string, status int, text string, fn func() error) {
	err := fn()
	var response *gitlab.ErrorResponse
	switch {
	case err == nil:
		emit(form, via, false, fmt.Sprintf("no error, expected %d", status))
	case !errors.As(err, &response):
		emit(form, via, false, "not an HTTP error: "+err.Error())
	case response.Response.StatusCode != status:
		emit(form, via, false, fmt.Sprintf("%d, expected %d: %s", response.Response.StatusCode, status, response.Message))
	case !strings.Contains(response.Message, text):
		emit(form, via, false, fmt.Sprintf("message %q, expected %q", response.Message, text))
	default:
		emit(form, via, true, response.Message)
	}
}

func expect(condition bool, format string, args ...interface{}) error {
	if condition {
		return nil
	}
	return fmt.Errorf(format, args...)
}

func str(s string) *string { return &s }

func level(l int) *gitlab.AccessLevelValue { v := gitlab.AccessLevelValue(l); return &v }

// raw sends a request go-gitlab has no method for; opt is the query (GET, HEAD) or the JSON body.
func raw(c *gitlab.Client, method, path string, opt interface{}, out interface{}, options ...gitlab.RequestOptionFunc) (*gitlab.Response, error) {
	req, err := c.NewRequest(method, path, opt, options)
	if err != nil {
		return nil, err
	}
	return c.Do(req, out)
}

func ids(members []*gitlab.GroupMember) []int {
	out := []int{}
	for _, m := range members {
		out = append(out, m.ID)
	}
	sort.Ints(out)
	return out
}

func projectIDs(members []*gitlab.ProjectMember) []int {
	out := []int{}
	for _, m := range members {
		out = append(out, m.ID)
	}
	sort.Ints(out)
	return out
}

func same(a, b []int) bool {
	sort.Ints(b)
	return fmt.Sprint(a) == fmt.Sprint(b)
}

// userIDs is a list filter as go-gitlab encodes its own: user_ids[]=1&user_ids[]=2.
type userIDs struct {
	UserIDs *[]int `url:"user_ids[],omitempty"`
}

func main() {
	base := os.Getenv("GITLAB_URL") + "/api/v4"
	token := os.Getenv("GITLAB_TOKEN")
	var fixtures struct {
		LDAP struct {
			GroupID    int    `json:"group_id"`
			UserID     int    `json:"user_id"`
			OwnerToken string `json:"owner_token"`
		} `json:"ldap"`
	}
	_ = json.Unmarshal([]byte(os.Getenv("GITLAB_FIXTURES")), &fixtures)
	gl, err := gitlab.NewClient(token, gitlab.WithBaseURL(base))
	if err != nil {
		emit("set-up: client", "service", false, err.Error())
		os.Exit(1)
	}

	// --- Set-up through the API, as the administrator ---------------------------------------------
	users := map[string]*gitlab.User{}
	var group *gitlab.Group
	var project *gitlab.Project
	setup := func() error {
		me, _, err := gl.Users.CurrentUser()
		if err != nil {
			return err
		}
		if me.Username != "root" || !me.IsAdmin {
			return fmt.Errorf("current user %s", me.Username)
		}
		if _, _, err := gl.Version.GetVersion(); err != nil {
			return err
		}
		for _, name := range []string{"ann", "bob", "cid", "dee", "eve", "own", "dev"} {
			u, _, err := gl.Users.CreateUser(&gitlab.CreateUserOptions{
				Email: str("go-" + name + "@example.com"), Username: str("go-" + name), Name: str("Go " + name),
				Password: str("Secret-pass-123"), SkipConfirmation: gitlab.Bool(true),
			})
			if err != nil {
				return err
			}
			users[name] = u
		}
		if group, _, err = gl.Groups.CreateGroup(&gitlab.CreateGroupOptions{Name: str("go-group"), Path: str("go-group"), Visibility: gitlab.Visibility(gitlab.PrivateVisibility)}); err != nil {
			return err
		}
		project, _, err = gl.Projects.CreateProject(&gitlab.CreateProjectOptions{
			Name: str("go-project"), NamespaceID: gitlab.Int(group.ID), InitializeWithReadme: gitlab.Bool(true), Visibility: gitlab.Visibility(gitlab.PrivateVisibility),
		})
		return err
	}
	if err := setup(); err != nil {
		emit("set-up: GET /user, GET /version, POST /users, POST /groups, POST /projects", "service", false, err.Error())
		os.Exit(1)
	}
	emit("set-up: GET /user, GET /version, POST /users, POST /groups, POST /projects", "service", true, "")
	pid, gid := project.ID, group.ID
	ann, bob, cid, dee, eve, own, dev := users["ann"], users["bob"], users["cid"], users["dee"], users["eve"], users["own"], users["dev"]

	check("set-up: GET /users?username=", "service", func() error {
		found, _, err := gl.Users.ListUsers(&gitlab.ListUsersOptions{Username: str("go-bob")})
		if err != nil {
			return err
		}
		return expect(len(found) == 1 && found[0].ID == bob.ID, "users named go-bob: %d", len(found))
	})
	check("set-up: GET /groups/:id/subgroups", "service", func() error {
		sub, _, err := gl.Groups.CreateGroup(&gitlab.CreateGroupOptions{Name: str("go-sub"), Path: str("go-sub"), ParentID: gitlab.Int(gid)})
		if err != nil {
			return err
		}
		subs, _, err := gl.Groups.ListSubGroups(gid, &gitlab.ListSubGroupsOptions{})
		if err != nil {
			return err
		}
		return expect(len(subs) == 1 && subs[0].ID == sub.ID, "subgroups %d", len(subs))
	})

	// --- Repository files --------------------------------------------------------------------------
	path := "docs/guide.md"
	var blobID string
	check("POST "+file, "service", func() error {
		info, _, err := gl.RepositoryFiles.CreateFile(pid, path, &gitlab.CreateFileOptions{
			Branch: str("main"), Content: str("one\ntwo\n"), CommitMessage: str("add guide"), AuthorName: str("Ann"), AuthorEmail: str("go-ann@example.com"),
		})
		if err != nil {
			return err
		}
		return expect(info.FilePath == path && info.Branch == "main", "created %+v", info)
	})
	check("GET "+file, "service", func() error {
		f, _, err := gl.RepositoryFiles.GetFile(pid, path, &gitlab.GetFileOptions{Ref: str("main")})
		if err != nil {
			return err
		}
		blobID = f.BlobID
		return expect(f.FileName == "guide.md" && len(f.BlobID) == 40 && f.Encoding == "base64", "file %+v", f)
	})
	check("HEAD "+file, "service", func() error {
		f, _, err := gl.RepositoryFiles.GetFileMetaData(pid, path, &gitlab.GetFileMetaDataOptions{Ref: str("main")})
		if err != nil {
			return err
		}
		return expect(f.BlobID == blobID && f.FilePath == path, "metadata %+v", f)
	})
	check("GET "+file+"/blame", "service", func() error {
		ranges, _, err := gl.RepositoryFiles.GetFileBlame(pid, path, &gitlab.GetFileBlameOptions{Ref: str("main")})
		if err != nil {
			return err
		}
		lines := []string{}
		for _, r := range ranges {
			lines = append(lines, r.Lines...)
		}
		if err := expect(strings.Join(lines, ",") == "one,two", "blame %v", lines); err != nil {
			return err
		}
		// A hash parameter in Rack's bracket form: range[start]=2&range[end]=2.
		var ranged []*gitlab.FileBlameRange
		query := struct {
			Ref   string `url:"ref"`
			Start int    `url:"range[start]"`
			End   int    `url:"range[end]"`
		}{"main", 2, 2}
		if _, err := raw(gl, http.MethodGet, fmt.Sprintf("projects/%d/repository/files/%s/blame", pid, url.PathEscape(path)), query, &ranged); err != nil {
			return err
		}
		return expect(len(ranged) == 1 && strings.Join(ranged[0].Lines, ",") == "two", "ranged blame %+v", ranged)
	})
	check("GET "+file+"/raw", "service", func() error {
		content, _, err := gl.RepositoryFiles.GetRawFile(pid, path, &gitlab.GetRawFileOptions{Ref: str("main")})
		if err != nil {
			return err
		}
		return expect(string(content) == "one\ntwo\n", "raw %q", content)
	})
	for _, suffix := range []string{"/blame", "/raw"} {
		check("HEAD "+file+suffix, "http", func() error {
			res, err := raw(gl, http.MethodHead, fmt.Sprintf("projects/%d/repository/files/%s%s", pid, url.PathEscape(path), suffix), struct {
				Ref string `url:"ref"`
			}{"main"}, nil)
			if err != nil {
				return err
			}
			return expect(res.Header.Get("X-Gitlab-Blob-Id") == blobID, "X-Gitlab-Blob-Id %s", res.Header.Get("X-Gitlab-Blob-Id"))
		})
	}
	expectStatus("POST "+file, "service", 400, "A file with this name already exists", func() error {
		_, _, err := gl.RepositoryFiles.CreateFile(pid, path, &gitlab.CreateFileOptions{Branch: str("main"), Content: str("x"), CommitMessage: str("again")})
		return err
	})
	check("PUT "+file, "service", func() error {
		_, _, err := gl.RepositoryFiles.UpdateFile(pid, path, &gitlab.UpdateFileOptions{Branch: str("main"), Content: str("one\nTWO\n"), CommitMessage: str("edit")})
		return err
	})
	check("DELETE "+file, "service", func() error {
		_, err := gl.RepositoryFiles.DeleteFile(pid, path, &gitlab.DeleteFileOptions{Branch: str("main"), CommitMessage: str("remove")})
		return err
	})
	expectStatus("GET "+file, "service", 404, "404 File Not Found", func() error {
		_, _, err := gl.RepositoryFiles.GetFile(pid, path, &gitlab.GetFileOptions{Ref: str("main")})
		return err
	})

	// --- Remote mirrors ------------------------------------------------------------------------------
	var mirrorID int
	check("POST "+mirrors, "service", func() error {
		m, _, err := gl.ProjectMirrors.AddProjectMirror(pid, &gitlab.AddProjectMirrorOptions{URL: str("https://bot:s3cret@example.com/mirror.git"), Enabled: gitlab.Bool(true)})
		if err != nil {
			return err
		}
		mirrorID = m.ID
		return expect(m.URL == "https://*****:*****@example.com/mirror.git" && m.Enabled, "mirror %+v", m)
	})
	check("GET "+mirrors, "service", func() error {
		list, _, err := gl.ProjectMirrors.ListProjectMirror(pid, &gitlab.ListProjectMirrorOptions{})
		if err != nil {
			return err
		}
		return expect(len(list) == 1 && list[0].ID == mirrorID, "mirrors %d", len(list))
	})
	check("GET "+mirror, "service", func() error {
		m, _, err := gl.ProjectMirrors.GetProjectMirror(pid, mirrorID)
		if err != nil {
			return err
		}
		return expect(m.ID == mirrorID, "mirror %+v", m)
	})
	check("PUT "+mirror, "service", func() error {
		m, _, err := gl.ProjectMirrors.EditProjectMirror(pid, mirrorID, &gitlab.EditProjectMirrorOptions{OnlyProtectedBranches: gitlab.Bool(true)})
		if err != nil {
			return err
		}
		return expect(m.OnlyProtectedBranches, "mirror %+v", m)
	})
	check("POST "+mirror+"/sync", "http", func() error {
		res, err := raw(gl, http.MethodPost, fmt.Sprintf("projects/%d/remote_mirrors/%d/sync", pid, mirrorID), nil, nil)
		if err != nil {
			return err
		}
		return expect(res.StatusCode == 204, "status %d", res.StatusCode)
	})
	check("DELETE "+mirror, "service", func() error {
		_, err := gl.ProjectMirrors.DeleteProjectMirror(pid, mirrorID)
		return err
	})
	expectStatus("GET "+mirror, "service", 404, "", func() error {
		_, _, err := gl.ProjectMirrors.GetProjectMirror(pid, mirrorID)
		return err
	})

	// --- Invitations ------------------------------------------------------------------------------------
	for _, kind := range []string{"groups", "projects"} {
		id := gid
		if kind == "projects" {
			id = pid
		}
		first, second := "go-new-"+kind+"@example.com", "go-two-"+kind+"@example.com"
		invite := func(opt *gitlab.InvitesOptions) (*gitlab.InvitesResult, error) {
			if kind == "groups" {
				r, _, err := gl.Invites.GroupInvites(id, opt)
				return r, err
			}
			r, _, err := gl.Invites.ProjectInvites(id, opt)
			return r, err
		}
		check("POST /"+kind+"/:id/invitations", "service", func() error {
			r, err := invite(&gitlab.InvitesOptions{Email: str(first + "," + second), AccessLevel: level(30)})
			if err != nil {
				return err
			}
			return expect(r.Status == "success", "invitation %+v", r)
		})
		check("POST /"+kind+"/:id/invitations", "service", func() error {
			// user_id as GitLab documents it: a string, one id or several separated by commas.
			r, err := invite(&gitlab.InvitesOptions{UserID: fmt.Sprintf("%d,%d", dee.ID, eve.ID), AccessLevel: level(10)})
			if err != nil {
				return err
			}
			if err := expect(r.Status == "success", "invitation %+v", r); err != nil {
				return err
			}
			var direct []*gitlab.GroupMember
			if _, err := raw(gl, http.MethodGet, fmt.Sprintf("%s/%d/members", kind, id), userIDs{&[]int{dee.ID, eve.ID}}, &direct); err != nil {
				return err
			}
			for _, u := range []*gitlab.User{dee, eve} {
				if _, err := raw(gl, http.MethodDelete, fmt.Sprintf("%s/%d/members/%d", kind, id, u.ID), nil, nil); err != nil {
					return err
				}
			}
			return expect(same(ids(direct), []int{dee.ID, eve.ID}), "members %v", ids(direct))
		})
		expectStatus("POST /"+kind+"/:id/invitations", "service", 400, "Must provide either email or user_id", func() error {
			// A JSON number is no user_id list for GitLab (CommaSeparatedToArray).
			_, err := invite(&gitlab.InvitesOptions{UserID: dee.ID, AccessLevel: level(10)})
			return err
		})
		check("GET /"+kind+"/:id/invitations", "service", func() error {
			var list []*gitlab.PendingInvite
			var err error
			if kind == "groups" {
				list, _, err = gl.Invites.ListPendingGroupInvitations(id, &gitlab.ListPendingInvitationsOptions{})
			} else {
				list, _, err = gl.Invites.ListPendingProjectInvitations(id, &gitlab.ListPendingInvitationsOptions{})
			}
			if err != nil {
				return err
			}
			return expect(len(list) == 2, "invitations %d", len(list))
		})
		check("PUT /"+kind+"/:id/invitations/:email", "http", func() error {
			var out map[string]interface{}
			if _, err := raw(gl, http.MethodPut, fmt.Sprintf("%s/%d/invitations/%s", kind, id, url.PathEscape(first)), map[string]int{"access_level": 40}, &out); err != nil {
				return err
			}
			return expect(out["access_level"] == float64(40), "updated %v", out)
		})
		check("DELETE /"+kind+"/:id/invitations/:email", "http", func() error {
			for _, email := range []string{first, second} {
				if _, err := raw(gl, http.MethodDelete, fmt.Sprintf("%s/%d/invitations/%s", kind, id, url.PathEscape(email)), nil, nil); err != nil {
					return err
				}
			}
			return nil
		})
	}

	// --- Members ---------------------------------------------------------------------------------------
	check("POST /groups/:id/members", "service", func() error {
		m, _, err := gl.GroupMembers.AddGroupMember(gid, &gitlab.AddGroupMemberOptions{UserID: gitlab.Int(bob.ID), AccessLevel: level(30)})
		if err != nil {
			return err
		}
		return expect(m.ID == bob.ID && m.AccessLevel == 30, "member %+v", m)
	})
	check("POST /projects/:id/members", "service", func() error {
		m, _, err := gl.ProjectMembers.AddProjectMember(pid, &gitlab.AddProjectMemberOptions{UserID: cid.ID, AccessLevel: level(20)})
		if err != nil {
			return err
		}
		return expect(m.ID == cid.ID && m.AccessLevel == 20, "member %+v", m)
	})
	check("GET /groups/:id/members", "service", func() error {
		list, _, err := gl.Groups.ListGroupMembers(gid, &gitlab.ListGroupMembersOptions{UserIDs: &[]int{bob.ID, ann.ID}})
		if err != nil {
			return err
		}
		return expect(same(ids(list), []int{bob.ID}), "user_ids[] %v", ids(list))
	})
	check("GET /projects/:id/members", "service", func() error {
		list, _, err := gl.ProjectMembers.ListProjectMembers(pid, &gitlab.ListProjectMembersOptions{UserIDs: &[]int{cid.ID, bob.ID}})
		if err != nil {
			return err
		}
		return expect(same(projectIDs(list), []int{cid.ID}), "user_ids[] %v", projectIDs(list))
	})
	check("GET /groups/:id/members/all", "service", func() error {
		list, _, err := gl.Groups.ListAllGroupMembers(gid, &gitlab.ListGroupMembersOptions{UserIDs: &[]int{bob.ID}})
		if err != nil {
			return err
		}
		return expect(same(ids(list), []int{bob.ID}), "user_ids[] %v", ids(list))
	})
	check("GET /projects/:id/members/all", "service", func() error {
		list, _, err := gl.ProjectMembers.ListAllProjectMembers(pid, &gitlab.ListProjectMembersOptions{UserIDs: &[]int{bob.ID, cid.ID}})
		if err != nil {
			return err
		}
		return expect(same(projectIDs(list), []int{bob.ID, cid.ID}), "user_ids[] %v", projectIDs(list))
	})
	check("GET /groups/:id/members/:user_id", "service", func() error {
		m, _, err := gl.GroupMembers.GetGroupMember(gid, bob.ID)
		if err != nil {
			return err
		}
		return expect(m.AccessLevel == 30, "member %+v", m)
	})
	check("GET /projects/:id/members/:user_id", "service", func() error {
		m, _, err := gl.ProjectMembers.GetProjectMember(pid, cid.ID)
		if err != nil {
			return err
		}
		return expect(m.AccessLevel == 20, "member %+v", m)
	})
	check("GET /groups/:id/members/all/:user_id", "http", func() error {
		var m gitlab.GroupMember
		if _, err := raw(gl, http.MethodGet, fmt.Sprintf("groups/%d/members/all/%d", gid, bob.ID), nil, &m); err != nil {
			return err
		}
		return expect(m.AccessLevel == 30, "member %+v", m)
	})
	check("GET /projects/:id/members/all/:user_id", "service", func() error {
		m, _, err := gl.ProjectMembers.GetInheritedProjectMember(pid, bob.ID)
		if err != nil {
			return err
		}
		return expect(m.AccessLevel == 30, "member %+v", m)
	})
	check("PUT /groups/:id/members/:user_id", "service", func() error {
		m, _, err := gl.GroupMembers.EditGroupMember(gid, bob.ID, &gitlab.EditGroupMemberOptions{AccessLevel: level(40)})
		if err != nil {
			return err
		}
		return expect(m.AccessLevel == 40, "member %+v", m)
	})
	check("PUT /projects/:id/members/:user_id", "service", func() error {
		m, _, err := gl.ProjectMembers.EditProjectMember(pid, cid.ID, &gitlab.EditProjectMemberOptions{AccessLevel: level(30)})
		if err != nil {
			return err
		}
		return expect(m.AccessLevel == 30, "member %+v", m)
	})
	expectStatus("POST /groups/:id/members", "service", 409, "Member already exists", func() error {
		_, _, err := gl.GroupMembers.AddGroupMember(gid, &gitlab.AddGroupMemberOptions{UserID: gitlab.Int(bob.ID), AccessLevel: level(30)})
		return err
	})
	check("DELETE /projects/:id/members/:user_id", "service", func() error {
		_, err := gl.ProjectMembers.DeleteProjectMember(pid, cid.ID)
		return err
	})
	check("DELETE /groups/:id/members/:user_id", "service", func() error {
		if _, _, err := gl.GroupMembers.AddGroupMember(gid, &gitlab.AddGroupMemberOptions{UserID: gitlab.Int(dee.ID), AccessLevel: level(10)}); err != nil {
			return err
		}
		_, err := gl.GroupMembers.RemoveGroupMember(gid, dee.ID, &gitlab.RemoveGroupMemberOptions{})
		return err
	})
	expectStatus("GET /groups/:id/members/:user_id", "service", 404, "", func() error {
		_, _, err := gl.GroupMembers.GetGroupMember(gid, 999999)
		return err
	})

	// --- sudo (the Sudo header) ------------------------------------------------------------------------
	check("set-up: a Developer to act as", "service", func() error {
		_, _, err := gl.GroupMembers.AddGroupMember(gid, &gitlab.AddGroupMemberOptions{UserID: gitlab.Int(dev.ID), AccessLevel: level(30)})
		return err
	})
	expectStatus("POST /projects/:id/members", "service", 403, "403 Forbidden", func() error {
		_, _, err := gl.ProjectMembers.AddProjectMember(pid, &gitlab.AddProjectMemberOptions{UserID: ann.ID, AccessLevel: level(10)}, gitlab.WithSudo(dev.Username))
		return err
	})
	check("POST "+file, "service", func() error {
		if _, _, err := gl.Branches.CreateBranch(pid, &gitlab.CreateBranchOptions{Branch: str("dev-work"), Ref: str("main")}); err != nil {
			return err
		}
		if _, _, err := gl.RepositoryFiles.CreateFile(pid, "sudo.txt", &gitlab.CreateFileOptions{Branch: str("dev-work"), Content: str("x"), CommitMessage: str("as dev")}, gitlab.WithSudo(dev.ID)); err != nil {
			return err
		}
		branch, _, err := gl.Branches.GetBranch(pid, "dev-work")
		if err != nil {
			return err
		}
		return expect(branch.Commit.AuthorEmail == dev.Email, "commit by %s", branch.Commit.AuthorEmail)
	})
	check("GET /groups/:id/members", "service", func() error {
		// As the Developer, the group's members are readable; as a nobody they are not.
		if _, _, err := gl.Groups.ListGroupMembers(gid, &gitlab.ListGroupMembersOptions{}, gitlab.WithSudo(dev.ID)); err != nil {
			return err
		}
		_, _, err := gl.Groups.ListGroupMembers(gid, &gitlab.ListGroupMembersOptions{}, gitlab.WithSudo(ann.ID))
		var response *gitlab.ErrorResponse
		return expect(errors.As(err, &response) && response.Response.StatusCode == 404, "as a stranger: %v", err)
	})

	// --- Billable and pending members, approval, LDAP override (GitLab EE) ----------------------------
	check("set-up: billable members", "service", func() error {
		for _, add := range []struct {
			user  *gitlab.User
			level int
		}{{ann, 20}, {own, 50}} {
			if _, _, err := gl.GroupMembers.AddGroupMember(gid, &gitlab.AddGroupMemberOptions{UserID: gitlab.Int(add.user.ID), AccessLevel: level(add.level)}); err != nil {
				return err
			}
		}
		_, _, err := gl.ProjectMembers.AddProjectMember(pid, &gitlab.AddProjectMemberOptions{UserID: eve.ID, AccessLevel: level(30)})
		return err
	})
	check("GET /groups/:id/billable_members", "service", func() error {
		list, _, err := gl.Groups.ListBillableGroupMembers(gid, &gitlab.ListBillableGroupMembersOptions{})
		if err != nil {
			return err
		}
		seen := map[int]bool{}
		for _, m := range list {
			seen[m.ID] = true
		}
		return expect(seen[ann.ID] && seen[eve.ID], "billable %d", len(list))
	})
	// Billable members are the Owner's: a Developer gets 400 (ee/lib/ee/api/members.rb: bad_request! without read_billable_member).
	expectStatus("GET /groups/:id/billable_members", "service", 400, "", func() error {
		_, _, err := gl.Groups.ListBillableGroupMembers(gid, &gitlab.ListBillableGroupMembersOptions{}, gitlab.WithSudo(dev.ID))
		return err
	})
	check("GET /groups/:id/billable_members/:user_id/memberships", "http", func() error {
		var list []map[string]interface{}
		if _, err := raw(gl, http.MethodGet, fmt.Sprintf("groups/%d/billable_members/%d/memberships", gid, eve.ID), nil, &list); err != nil {
			return err
		}
		return expect(len(list) == 1 && list[0]["source_id"] == float64(pid), "memberships %v", list)
	})
	check("GET /groups/:id/billable_members/:user_id/indirect", "http", func() error {
		var list []map[string]interface{}
		if _, err := raw(gl, http.MethodGet, fmt.Sprintf("groups/%d/billable_members/%d/indirect", gid, eve.ID), nil, &list); err != nil {
			return err
		}
		return expect(len(list) == 0, "indirect %v", list)
	})
	check("DELETE /groups/:id/billable_members/:user_id", "service", func() error {
		_, err := gl.Groups.RemoveBillableGroupMember(gid, eve.ID)
		return err
	})
	check("PUT /groups/:id/members/:user_id/state", "http", func() error {
		var out map[string]interface{}
		if _, err := raw(gl, http.MethodPut, fmt.Sprintf("groups/%d/members/%d/state", gid, ann.ID), map[string]string{"state": "awaiting"}, &out); err != nil {
			return err
		}
		return expect(out["success"] == true, "state %v", out)
	})
	var pendingID float64
	check("GET /groups/:id/pending_members", "http", func() error {
		var list []map[string]interface{}
		if _, err := raw(gl, http.MethodGet, fmt.Sprintf("groups/%d/pending_members", gid), nil, &list); err != nil {
			return err
		}
		if len(list) != 1 || list[0]["username"] != "go-ann" {
			return fmt.Errorf("pending %v", list)
		}
		pendingID = list[0]["id"].(float64)
		return nil
	})
	check("PUT /groups/:id/members/:member_id/approve", "http", func() error {
		res, err := raw(gl, http.MethodPut, fmt.Sprintf("groups/%d/members/%d/approve", gid, int(pendingID)), nil, nil)
		if err != nil {
			return err
		}
		return expect(res.StatusCode == 204, "status %d", res.StatusCode)
	})
	check("POST /groups/:id/members/approve_all", "http", func() error {
		if _, err := raw(gl, http.MethodPut, fmt.Sprintf("groups/%d/members/%d/state", gid, bob.ID), map[string]string{"state": "awaiting"}, nil); err != nil {
			return err
		}
		res, err := raw(gl, http.MethodPost, fmt.Sprintf("groups/%d/members/approve_all", gid), nil, nil)
		if err != nil {
			return err
		}
		return expect(res.StatusCode == 204, "status %d", res.StatusCode)
	})
	ldap, _ := gitlab.NewClient(fixtures.LDAP.OwnerToken, gitlab.WithBaseURL(base))
	overridePath := fmt.Sprintf("groups/%d/members/%d/override", fixtures.LDAP.GroupID, fixtures.LDAP.UserID)
	check("POST /groups/:id/members/:user_id/override", "http", func() error {
		var m map[string]interface{}
		if _, err := raw(ldap, http.MethodPost, overridePath, nil, &m); err != nil {
			return err
		}
		return expect(m["override"] == true, "member %v", m)
	})
	check("DELETE /groups/:id/members/:user_id/override", "http", func() error {
		var m map[string]interface{}
		if _, err := raw(ldap, http.MethodDelete, overridePath, nil, &m); err != nil {
			return err
		}
		return expect(m["override"] == false, "member %v", m)
	})

	// --- Errors across the API --------------------------------------------------------------------------
	bad, _ := gitlab.NewClient("glpat-not-a-real-token-000", gitlab.WithBaseURL(base))
	expectStatus("GET /user", "service", 401, "401 Unauthorized", func() error {
		_, _, err := bad.Users.CurrentUser()
		return err
	})
	expectStatus("GET /user", "service", 404, "User with ID or username 'go-nobody'", func() error {
		_, _, err := gl.Users.CurrentUser(gitlab.WithSudo("go-nobody"))
		return err
	})
	if failures > 0 {
		os.Exit(1)
	}
}
